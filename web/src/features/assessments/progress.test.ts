import { describe, expect, it } from 'vitest'
import { aRequirement } from './fixtures'
import { formatScore, percentOf, progressFrom, progressSegments } from './progress'

describe('progress', () => {
  it('counts answers and evidence like the server', () => {
    const progress = progressFrom([
      aRequirement('a', { result: 'yes', evidenceCount: 1 }),
      aRequirement('b', { result: 'not_applicable' }),
      aRequirement('c'),
    ])
    expect(progress).toEqual({ total: 3, answered: 2, yes: 1, partial: 0, no: 0, notApplicable: 1, withEvidence: 1 })
    expect(progressSegments(progress).map((s) => [s.key, s.count])).toEqual([
      ['yes', 1], ['partial', 0], ['no', 0], ['not_applicable', 1], ['unanswered', 1],
    ])
  })
  it('never rounds to a false 0 or 100 percent', () => {
    expect(percentOf(349, 350)).toBe(99)
    expect(percentOf(1, 350)).toBe(1)
    expect(percentOf(0, 0)).toBe(0)
    expect(percentOf(175, 350)).toBe(50)
  })
  it('shows a score with up to two decimals in the viewer language', () => {
    expect(formatScore(87.5, 'en')).toBe('87.5 %')
    expect(formatScore(66.666, 'de')).toBe('66,67 %')
    expect(formatScore(null, 'en')).toBe('—')
  })
})
