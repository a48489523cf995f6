import type { RouteLocationRaw } from 'vue-router'
import type { Dashboard } from './api'
import type { WidgetId } from './layout'

/** Kpi is one key figure of the dashboard: its count, the locale key of its label and where it leads. */
export interface Kpi {
  key: string
  value: number
  to: RouteLocationRaw
  tone: 'neutral' | 'warning' | 'danger' | 'success'
}

/**
 * kpisOf is the row of key figures: open and overdue assessments, evidence in review and
 * expiring, sealed and expiring attestations; each links to the list filtered the same way
 * (expiring evidence soonest first).
 */
export function kpisOf(d: Dashboard): Kpi[] {
  const state = (list: { state: string; count: number }[] | null, s: string) => list?.find((x) => x.state === s)?.count ?? 0
  const open = (d.assessments.byState ?? []).filter((x) => !['complete', 'archived', 'cancelled'].includes(x.state)).reduce((n, x) => n + x.count, 0)
  return [
    { key: 'openAssessments', value: open, to: { name: 'assessments' }, tone: 'neutral' },
    { key: 'overdue', value: d.assessments.overdue, to: { name: 'assessments', query: { due: 'overdue' } }, tone: d.assessments.overdue > 0 ? 'danger' : 'neutral' },
    { key: 'inReview', value: d.evidence.inReview, to: { name: 'evidence', query: { state: 'in_review' } }, tone: d.evidence.inReview > 0 ? 'warning' : 'neutral' },
    { key: 'evidenceExpiring', value: d.evidence.expiring, to: { name: 'evidence', query: { expiringWithin: String(d.expiringDays), sort: 'validUntil' } }, tone: d.evidence.expiring > 0 ? 'warning' : 'neutral' },
    { key: 'sealed', value: state(d.attestations.byState, 'sealed'), to: { name: 'attestations', query: { state: 'sealed' } }, tone: 'success' },
    { key: 'attestationsExpiring', value: d.attestations.expiring, to: { name: 'attestations', query: { state: 'sealed' } }, tone: d.attestations.expiring > 0 ? 'warning' : 'neutral' },
  ]
}

/** ChartItem is one bar: its label and value. */
export interface ChartItem {
  label: string
  value: number
}

/** pipelineOf is the assessments by state, in lifecycle order, labelled by `label`. */
export function pipelineOf(d: Dashboard, label: (state: string) => string): ChartItem[] {
  return statesOf(d.assessments.byState, label)
}

/** conformanceOf is the mean score per standard of the finished assessments (standards without a score left out). */
export function conformanceOf(d: Dashboard): ChartItem[] {
  return (d.conformance ?? [])
    .filter((c) => c.averageScore !== null)
    .map((c) => ({ label: c.standardVersion ? `${c.name} ${c.standardVersion}` : c.name, value: c.averageScore as number }))
}

/** statesOf is a list of counts by state, in the server's order, labelled by `label`. */
export function statesOf(list: { state: string; count: number }[] | null | undefined, label: (state: string) => string): ChartItem[] {
  return (list ?? []).map((x) => ({ label: label(x.state), value: x.count }))
}

/** KPI_WIDGETS maps each key-figure widget to its figure's key (kpisOf, `dashboard.kpis.<key>`). */
export const KPI_WIDGETS: Readonly<Partial<Record<WidgetId, string>>> = {
  openAssessments: 'openAssessments',
  overdueAssessments: 'overdue',
  evidenceInReview: 'inReview',
  evidenceExpiring: 'evidenceExpiring',
  sealedAttestations: 'sealed',
  attestationsExpiring: 'attestationsExpiring',
}

/**
 * chartValue is a chart's figure as the viewer's language writes it: digits grouped as the
 * locale groups them ("12.345" in German, "12,345" in English), at most one decimal, and a
 * percentage with the space the scores use ("87,5 %"). ECharts' own labels group with commas
 * whatever the language.
 */
export function chartValue(value: number, unit: '%' | '' | undefined, locale: string): string {
  const text = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(value)
  return unit === '%' ? `${text} %` : text
}
