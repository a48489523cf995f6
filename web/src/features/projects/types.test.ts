import { describe, expect, it } from 'vitest'
import { roundPercent, sortWarnings } from './types'

describe('roundPercent', () => {
  it.each([
    [0, 0],
    [0.3, 1],
    [45.5, 46],
    [99.6, 99],
    [100, 100],
    [130, 100],
    [-5, 0],
  ])('shows %d as %d', (value, shown) => {
    expect(roundPercent(value)).toBe(shown)
  })
})

describe('sortWarnings', () => {
  it('puts critical first and keeps the order within a severity', () => {
    const sorted = sortWarnings([
      { code: 'a', severity: 'info', message: '1' },
      { code: 'b', message: '2' },
      { code: 'c', severity: 'critical', message: '3' },
      { code: 'd', severity: 'warning', message: '4' },
    ])
    expect(sorted.map((w) => w.message)).toEqual(['3', '2', '4', '1'])
  })
})
