import { describe, expect, it } from 'vitest'
import { rowOffsets, rowWindow, scrollToShow } from './virtualRows'

const even = (count: number, height = 44) => rowOffsets(Array.from({ length: count }, () => height))

describe('rowWindow', () => {
  it('renders the rows in view and the overscan, with spacers for the rest', () => {
    expect(rowWindow(even(350), 0, 440, 5)).toEqual({ start: 0, end: 15, before: 0, after: 335 * 44 })
    expect(rowWindow(even(350), 4400, 440, 5)).toEqual({ start: 95, end: 115, before: 95 * 44, after: 235 * 44 })
    expect(rowWindow(even(350), 350 * 44, 440, 5)).toEqual({ start: 345, end: 350, before: 345 * 44, after: 0 })
  })
  it('copes with empty lists and odd input', () => {
    expect(rowWindow(even(0), 0, 440, 5)).toEqual({ start: 0, end: 0, before: 0, after: 0 })
    expect(rowWindow(even(3), -50, 0, 0)).toEqual({ start: 0, end: 1, before: 0, after: 88 })
  })
  it('places rows of different heights (the taller requirement rows of a phone)', () => {
    // Two chapters of 44 px, then requirements of 100 px: offsets 0, 44, 88, 188, 288, …
    const offsets = rowOffsets([44, 44, ...Array.from({ length: 20 }, () => 100)])
    expect(rowWindow(offsets, 0, 200, 0)).toEqual({ start: 0, end: 4, before: 0, after: offsets[22]! - 288 })
    expect(rowWindow(offsets, 300, 200, 1)).toEqual({ start: 3, end: 8, before: 188, after: offsets[22]! - offsets[8]! })
  })
})

describe('scrollToShow', () => {
  it('scrolls only as far as needed to show a row', () => {
    expect(scrollToShow(even(30), 5, 0, 440)).toBe(0)
    expect(scrollToShow(even(30), 20, 0, 440)).toBe(21 * 44 - 440)
    expect(scrollToShow(even(30), 2, 400, 440)).toBe(88)
    expect(scrollToShow(rowOffsets([44, 100, 100, 100]), 3, 0, 200)).toBe(344 - 200)
  })
})
