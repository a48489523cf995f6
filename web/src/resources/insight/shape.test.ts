import { describe, expect, it } from 'vitest'
import { HISTORY, PORTFOLIO } from './fixtures'
import {
  heatmapOf,
  heatmapOption,
  heatmapSize,
  historyOption,
  historyRows,
  historySeries,
  portfolioTable,
  scoreBand,
  type ChartColors,
  type HeatDatum,
  type HistoryDatum,
} from './shape'

const COLORS: ChartColors = { text: '#111', line: '#eee', high: 'green', mid: 'amber', low: 'red', none: 'grey' }

describe('scoreBand', () => {
  it('classifies scores into the bands of the legend', () => {
    expect([100, 80, 79.99, 50, 49.99, 0, null, undefined].map(scoreBand)).toEqual(['high', 'high', 'mid', 'mid', 'low', 'low', 'none', 'none'])
  })
})

describe('score history', () => {
  it('is a line per standard, by name, each oldest first', () => {
    const series = historySeries(HISTORY.points ?? [])
    expect(series.map((s) => s.label)).toEqual(['ASVS 5.0.0', 'SSDF 1.1'])
    expect(series[0]!.points.map((p) => p.assessmentId)).toEqual(['as_1', 'as_2'])
  })

  it('draws time against score, a point without a score as a gap, with what a click opens', () => {
    const option = historyOption(historySeries(HISTORY.points ?? []), COLORS, { date: (d) => d.slice(0, 10), score: (n) => `${n ?? '—'} %` })
    expect(option.xAxis.type).toBe('time')
    expect([option.yAxis.min, option.yAxis.max, option.yAxis.interval]).toEqual([0, 100, 25])
    expect(option.series.map((s) => s.name)).toEqual(['ASVS 5.0.0', 'SSDF 1.1'])
    expect(option.series[0]!.data.map((d) => d.value)).toEqual([
      ['2026-01-10T09:00:00Z', 50],
      ['2026-03-05T09:00:00Z', 87.5],
    ])
    expect(option.series[1]!.data[0]!.value).toEqual(['2026-01-10T09:00:00Z', '-'])
    const tip = option.tooltip.formatter({ seriesName: 'ASVS <5>', data: option.series[0]!.data[1] as HistoryDatum })
    expect(tip).toBe('Second review<br>ASVS &lt;5&gt;<br>2026-03-05: <b>87.5 %</b>')
  })

  it('lists the points newest first in the table, the level after the standard', () => {
    expect(historyRows(HISTORY.points ?? []).map((r) => [r.assessmentTitle, r.standard, r.score])).toEqual([
      ['Second review', 'ASVS 5.0.0 · Level 1', 87.5],
      ['First review', 'SSDF 1.1', null],
      ['First review', 'ASVS 5.0.0', 50],
    ])
  })
})

describe('portfolio heat map', () => {
  it('places each cell at its standard and entity, a cell without a score at -1', () => {
    const map = heatmapOf(PORTFOLIO)
    expect(map.columns).toEqual(['ASVS 5.0.0', 'SSDF 1.1'])
    expect(map.rows).toEqual(['Other', 'Shop'])
    expect(map.data.map((d) => [...d.value, d.cell.assessmentId])).toEqual([
      [1, 0, 40, 'as_o'],
      [0, 1, 87.5, 'as_2'],
      [1, 1, -1, 'as_1'],
    ])
  })

  it('colours by band with a legend, the first entity at the top, the score written in each cell', () => {
    const map = heatmapOf(PORTFOLIO)
    const option = heatmapOption(map, COLORS, (band) => `band ${band}`, (d) => `${d.row.entityName}: ${d.cell.assessmentTitle}`)
    expect(option.yAxis.inverse).toBe(true)
    expect(option.visualMap.show).toBe(false) // the legend is HTML beside the chart
    expect(option.visualMap.pieces.map((p) => [p.color, p.label])).toEqual([
      ['green', 'band high'],
      ['amber', 'band mid'],
      ['red', 'band low'],
      ['grey', 'band none'],
    ])
    const label = option.series[0]!.label.formatter
    expect(map.data.map((d) => label({ data: d }))).toEqual(['40', '88', '–'])
    expect(option.tooltip.formatter({ data: map.data[0] as HeatDatum })).toBe('Other: Their review')
  })

  it('grows with the page and scrolls sideways beyond a phone', () => {
    expect(heatmapSize(heatmapOf(PORTFOLIO))).toEqual({ width: 390, height: 138 })
    const wide = heatmapOf({ standards: Array.from({ length: 10 }, (_, i) => ({ id: `st_${i}`, name: `S${i}`, version: '' })), items: [] })
    expect(heatmapSize(wide).width).toBeGreaterThan(390)
  })

  it('is a table with a cell per standard where the entity has a result', () => {
    const rows = portfolioTable(PORTFOLIO)
    expect(rows.map((r) => [r.row.entityName, Object.keys(r.cells)])).toEqual([
      ['Other', ['st_ssdf']],
      ['Shop', ['st_asvs', 'st_ssdf']],
    ])
  })
})
