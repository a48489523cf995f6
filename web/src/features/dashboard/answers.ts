import type { CssColorSpec } from '../../app/themeColors'
import type { Dashboard } from './api'
import type { ChartItem } from './figures'

// The answers widget (issue 25): the yes, partial, no and not-applicable answers of the
// finished assessments, summed over every standard of the conformance figures, as a donut.

/** ANSWER_RESULTS are the results the widget counts, in the order it shows them (`assessments.results.<key>`). */
export const ANSWER_RESULTS = ['yes', 'partial', 'no', 'not_applicable'] as const

/** AnswerResult is one of ANSWER_RESULTS. */
export type AnswerResult = (typeof ANSWER_RESULTS)[number]

/**
 * ANSWER_COLORS colour the results as the assessment's progress bar does (ProgressSummary):
 * one for each of ANSWER_RESULTS, in the same order, read from the theme.
 */
export const ANSWER_COLORS: readonly CssColorSpec[] = [
  { variable: '--el-color-success', fallback: '#67c23a' },
  { variable: '--el-color-warning', fallback: '#e6a23c' },
  { variable: '--el-color-danger', fallback: '#f56c6c' },
  { variable: '--el-color-info-light-3', fallback: '#b1b3b8' },
]

/**
 * answersOf is the answers of the finished assessments by result, one item for each of
 * ANSWER_RESULTS labelled by `label`; none at all when there is no answer to show (no
 * finished assessment), so the chart shows its empty state instead of an empty ring.
 */
export function answersOf(d: Dashboard, label: (result: AnswerResult) => string): ChartItem[] {
  const totals: Record<AnswerResult, number> = { yes: 0, partial: 0, no: 0, not_applicable: 0 }
  for (const c of d.conformance ?? []) {
    totals.yes += c.yes
    totals.partial += c.partial
    totals.no += c.no
    totals.not_applicable += c.notApplicable
  }
  if (ANSWER_RESULTS.every((r) => totals[r] === 0)) return []
  return ANSWER_RESULTS.map((r) => ({ label: label(r), value: totals[r] }))
}
