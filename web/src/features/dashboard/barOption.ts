import { chartValue, type ChartItem } from './figures'

// The ECharts option of the dashboard's bar charts (BarChart), a pure function so what a
// chart would draw is tested without a canvas.

/** BarColors are the theme's colours a bar chart is drawn in. */
export interface BarColors {
  bar: string
  text: string
  line: string
}

/** BarScale is what the values are: a percentage (unit '%', max 100) or a count (no unit). */
export interface BarScale {
  unit?: '%' | ''
  max?: number
}

/** barChartOption is the option of horizontal bars, one per item, the first at the top. */
export function barChartOption(items: ChartItem[], scale: BarScale, c: BarColors, locale: string) {
  const reversed = [...items].reverse() // ECharts draws the first category at the bottom
  const percent = scale.unit === '%'
  return {
    animation: false,
    grid: { left: 8, right: 40, top: 8, bottom: 8, containLabel: true },
    tooltip: { trigger: 'item', valueFormatter: (v: unknown) => chartValue(Number(v), scale.unit, locale) },
    // A percentage's axis ends at 100 and says so (0, 25, 50, 75, 100; split in four by
    // ECharts' own steps it read 0, 30, 60, 90 and left 100 unlabelled). A count's axis
    // steps by whole numbers: one assessment never reads 0.3, 0.6, 0.9.
    xAxis: { type: 'value', max: scale.max, splitNumber: 4, interval: scale.max === 100 ? 25 : undefined, minInterval: percent ? undefined : 1,
      splitLine: { lineStyle: { color: c.line } }, axisLabel: { color: c.text, hideOverlap: true, formatter: (v: number) => chartValue(v, '', locale) } },
    yAxis: { type: 'category', data: reversed.map((i) => i.label), axisLabel: { color: c.text, width: 160, overflow: 'truncate' } },
    series: [{ type: 'bar', data: reversed.map((i) => i.value), itemStyle: { color: c.bar }, label: { show: true, position: 'right', color: c.text,
      formatter: (p: { value: number }) => chartValue(p.value, scale.unit, locale) } }],
  }
}
