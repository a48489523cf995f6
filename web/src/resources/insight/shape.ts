import type { ScoreBand } from '../../app/scoreBand'
import type { Portfolio, PortfolioCell, PortfolioRow, PortfolioStandard, ScorePoint } from './api'

// The data of the insight charts, shaped for ECharts and for their tables: pure functions,
// so what a chart would draw is tested without a canvas.

// The score bands are the app's (ScoreBox colours by them too).
export { SCORE_BANDS, scoreBand, type ScoreBand } from '../../app/scoreBand'

/** standardName names a standard with its version, e.g. "OWASP ASVS 5.0.0". */
export function standardName(name: string, version?: string): string {
  return version ? `${name} ${version}` : name
}

/** HistorySeries is the points of one standard, oldest first: one line of the chart. */
export interface HistorySeries {
  standardId: string
  label: string
  points: ScorePoint[]
}

/** historySeries groups an entity's points by standard, the standards by name. */
export function historySeries(points: readonly ScorePoint[]): HistorySeries[] {
  const byStandard = new Map<string, HistorySeries>()
  for (const p of points) {
    let series = byStandard.get(p.standardId)
    if (!series) {
      series = { standardId: p.standardId, label: standardName(p.standardName, p.standardVersion), points: [] }
      byStandard.set(p.standardId, series)
    }
    series.points.push(p)
  }
  return [...byStandard.values()].sort((a, b) => a.label.localeCompare(b.label) || a.standardId.localeCompare(b.standardId))
}

/** HistoryRow is a point as the table view shows it. */
export interface HistoryRow {
  key: string
  completedAt: string
  standard: string
  assessmentId: string
  assessmentTitle: string
  score: number | null
}

/** historyRows is the table view of the points: newest first, the level after the standard's name. */
export function historyRows(points: readonly ScorePoint[]): HistoryRow[] {
  return [...points].reverse().map((p) => ({
    key: `${p.assessmentId}/${p.standardId}`,
    completedAt: p.completedAt,
    standard: standardName(p.standardName, p.standardVersion) + (p.levelName ? ` · ${p.levelName}` : ''),
    assessmentId: p.assessmentId,
    assessmentTitle: p.assessmentTitle,
    score: p.score,
  }))
}

/** ChartColors are the theme's colours a chart paints with (canvas cannot read CSS variables). */
export interface ChartColors {
  text: string
  line: string
  high: string
  mid: string
  low: string
  none: string
}

/** HistoryDatum is one point of a line: [time, score or '-' for none], with what a click opens. */
export interface HistoryDatum {
  value: [string, number | '-']
  assessmentId: string
  assessmentTitle: string
}

/** historyOption is the ECharts option of the score history: a line per standard over time, 0–100. */
export function historyOption(series: readonly HistorySeries[], colors: ChartColors, format: { date: (iso: string) => string; score: (n: number | null) => string }) {
  return {
    animation: false,
    grid: { left: 8, right: 24, top: 48, bottom: 8, containLabel: true },
    legend: { type: 'scroll', top: 0, textStyle: { color: colors.text } },
    tooltip: {
      trigger: 'item',
      confine: true,
      formatter: (p: { seriesName: string; data: HistoryDatum }) =>
        `${escapeHtml(p.data.assessmentTitle)}<br>${escapeHtml(p.seriesName)}<br>${escapeHtml(format.date(p.data.value[0]))}: <b>${escapeHtml(format.score(p.data.value[1] === '-' ? null : p.data.value[1]))}</b>`,
    },
    xAxis: { type: 'time', axisLabel: { color: colors.text, hideOverlap: true }, axisLine: { lineStyle: { color: colors.line } } },
    yAxis: { type: 'value', min: 0, max: 100, interval: 25, axisLabel: { color: colors.text, formatter: '{value} %' }, splitLine: { lineStyle: { color: colors.line } } },
    series: series.map((s) => ({
      type: 'line',
      name: s.label,
      showSymbol: true,
      symbolSize: 8,
      connectNulls: false,
      data: s.points.map((p): HistoryDatum => ({ value: [p.completedAt, p.score ?? '-'], assessmentId: p.assessmentId, assessmentTitle: p.assessmentTitle })),
    })),
  }
}

/** HeatDatum is one cell of the heat map: [column, row, score or -1 for none], with its cell and row. */
export interface HeatDatum {
  value: [number, number, number]
  cell: PortfolioCell
  row: PortfolioRow
}

/** Heatmap is the portfolio shaped for the heat map: column and row labels and the cells. */
export interface Heatmap {
  columns: string[]
  rows: string[]
  data: HeatDatum[]
}

/** heatmapOf places every cell of a page at its column (standard) and row (entity). */
export function heatmapOf(p: Pick<Portfolio, 'standards' | 'items'>): Heatmap {
  const standards = p.standards ?? []
  const column = new Map(standards.map((s, i) => [s.id, i]))
  const rows = p.items ?? []
  const data: HeatDatum[] = []
  rows.forEach((row, y) => {
    for (const cell of row.cells ?? []) {
      const x = column.get(cell.standardId)
      if (x !== undefined) data.push({ value: [x, y, cell.score ?? -1], cell, row })
    }
  })
  return { columns: standards.map((s) => standardName(s.name, s.version)), rows: rows.map((r) => r.entityName), data }
}

/**
 * heatmapOption is the ECharts option of the heat map: entities down, standards across, coloured
 * by score band. The visual map only colours; its legend is HTML beside the chart (it wraps on a
 * phone, where the canvas's would be cut).
 */
export function heatmapOption(map: Heatmap, colors: ChartColors, bandLabel: (band: ScoreBand) => string, cellText: (d: HeatDatum) => string) {
  return {
    animation: false,
    grid: { left: 8, right: 8, top: 8, bottom: 8, containLabel: true },
    tooltip: { trigger: 'item', confine: true, formatter: (p: { data: HeatDatum }) => escapeHtml(cellText(p.data)) },
    xAxis: { type: 'category', position: 'top', data: map.columns, splitArea: { show: true }, axisLabel: { color: colors.text, interval: 0, width: 104, overflow: 'truncate' } },
    yAxis: { type: 'category', inverse: true, data: map.rows, splitArea: { show: true }, axisLabel: { color: colors.text, width: 150, overflow: 'truncate' } },
    visualMap: {
      type: 'piecewise',
      show: false,
      dimension: 2,
      pieces: [
        { gte: 80, lte: 100, color: colors.high, label: bandLabel('high') },
        { gte: 50, lt: 80, color: colors.mid, label: bandLabel('mid') },
        { gte: 0, lt: 50, color: colors.low, label: bandLabel('low') },
        { value: -1, color: colors.none, label: bandLabel('none') },
      ],
    },
    series: [
      {
        type: 'heatmap',
        data: map.data,
        cursor: 'pointer',
        label: { show: true, color: colors.text, formatter: (p: { data: HeatDatum }) => (p.data.cell.score === null ? '–' : String(Math.round(p.data.cell.score))) },
        itemStyle: { borderColor: colors.line, borderWidth: 1 },
      },
    ],
  }
}

/** heatmapSize is the heat map's size in pixels: a row per entity, a column per standard (wider than a phone scrolls). */
export function heatmapSize(map: Heatmap): { width: number; height: number } {
  return { width: Math.max(300, 170 + map.columns.length * 110), height: Math.max(120, 70 + map.rows.length * 34) }
}

/** PortfolioTableRow is an entity row of the table view, its cells by standard id. */
export interface PortfolioTableRow {
  row: PortfolioRow
  cells: Record<string, PortfolioCell>
}

/** portfolioTable is the table view of a page: one row per entity, a cell per standard where it has a result. */
export function portfolioTable(p: Pick<Portfolio, 'items'>): PortfolioTableRow[] {
  return (p.items ?? []).map((row) => ({ row, cells: Object.fromEntries((row.cells ?? []).map((c) => [c.standardId, c])) }))
}

/** columnsOf is the standards of a page, for the table's columns. */
export function columnsOf(p: Pick<Portfolio, 'standards'>): PortfolioStandard[] {
  return p.standards ?? []
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c)
}
