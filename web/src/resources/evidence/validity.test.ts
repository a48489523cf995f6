import { describe, expect, it } from 'vitest'
import { validity } from './validity'

describe('validity', () => {
  it('counts the days left, including the last valid day, and marks the past as expired', () => {
    expect(validity('2026-03-20', 'in_progress', '2026-03-10')).toEqual({ kind: 'valid', days: 10 })
    expect(validity('2026-03-10', 'in_progress', '2026-03-10')).toEqual({ kind: 'valid', days: 0 })
    expect(validity('2026-03-09', 'claimed', '2026-03-10')).toEqual({ kind: 'expired', days: 1 })
    expect(validity(undefined, 'in_progress', '2026-03-10')).toEqual({ kind: 'none' })
    expect(validity(undefined, 'expired', '2026-03-10')).toEqual({ kind: 'expired', days: 0 })
    expect(validity('2026-12-31', 'expired', '2026-03-10')).toEqual({ kind: 'expired', days: 0 })
  })
})
