import { describe, expect, it } from 'vitest'
import { rowWindow, scrollToShow } from './virtualRows'

describe('rowWindow', () => {
  it('renders the rows in view and the overscan, with spacers for the rest', () => {
    expect(rowWindow(350, 44, 0, 440, 5)).toEqual({ start: 0, end: 15, before: 0, after: 335 * 44 })
    expect(rowWindow(350, 44, 4400, 440, 5)).toEqual({ start: 95, end: 115, before: 95 * 44, after: 235 * 44 })
    expect(rowWindow(350, 44, 350 * 44, 440, 5)).toEqual({ start: 345, end: 350, before: 345 * 44, after: 0 })
  })
  it('copes with empty lists and odd input', () => {
    expect(rowWindow(0, 44, 0, 440, 5)).toEqual({ start: 0, end: 0, before: 0, after: 0 })
    expect(rowWindow(3, 44, -50, 0, 0)).toEqual({ start: 0, end: 1, before: 0, after: 88 })
  })
})

describe('scrollToShow', () => {
  it('scrolls only as far as needed to show a row', () => {
    expect(scrollToShow(5, 44, 0, 440)).toBe(0)
    expect(scrollToShow(20, 44, 0, 440)).toBe(21 * 44 - 440)
    expect(scrollToShow(2, 44, 400, 440)).toBe(88)
  })
})
