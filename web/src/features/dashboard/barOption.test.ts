import { describe, expect, it } from 'vitest'
import { barChartOption } from './barOption'

const colors = { bar: '#00f', text: '#333', line: '#eee' }
const items = [{ label: 'In progress', value: 1 }, { label: 'Complete', value: 0 }]

describe('barChartOption', () => {
  it("steps a count's axis by whole numbers", () => {
    expect(barChartOption(items, {}, colors, 'en').xAxis.minInterval).toBe(1)
  })

  it("labels a percentage's axis in quarters up to 100", () => {
    const axis = barChartOption(items, { unit: '%', max: 100 }, colors, 'en').xAxis
    expect(axis).toMatchObject({ max: 100, interval: 25 })
    expect(axis.minInterval).toBeUndefined()
  })

  it('draws the first item at the top', () => {
    expect(barChartOption(items, {}, colors, 'en').yAxis.data).toEqual(['Complete', 'In progress'])
  })
})
