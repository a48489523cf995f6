import { describe, expect, it } from 'vitest'
import { auditFiltersFromQuery, auditFiltersToQuery, auditQuery, hasDetails } from './filters'

describe('auditQuery', () => {
  it('leaves out empty filters and trims texts', () => {
    expect(auditQuery({ action: ' ', actor: '', days: null })).toEqual({ limit: 50 })
    expect(auditQuery({ action: ' user. ', actor: ' u_1 ', days: null }, 'c2')).toEqual({
      action: 'user.',
      actor: 'u_1',
      cursor: 'c2',
      limit: 50,
    })
  })

  it('covers whole days, the last one included', () => {
    const query = auditQuery({ action: '', actor: '', days: [new Date(2025, 2, 10, 15), new Date(2025, 2, 12, 9)] })
    expect(query.from).toBe(new Date(2025, 2, 10).toISOString())
    expect(query.to).toBe(new Date(2025, 2, 13).toISOString())
  })

  it('rolls over the end of a month', () => {
    const query = auditQuery({ action: '', actor: '', days: [new Date(2025, 0, 31), new Date(2025, 0, 31)] })
    expect(query.to).toBe(new Date(2025, 1, 1).toISOString())
  })
})

describe('hasDetails', () => {
  it('is true only for a non-empty object', () => {
    expect(hasDetails({ username: 'ada' })).toBe(true)
    expect(hasDetails({})).toBe(false)
    expect(hasDetails(null)).toBe(false)
  })
})

describe('audit filters in the URL', () => {
  it('reads what it knows and writes it back', () => {
    const filters = auditFiltersFromQuery({ action: 'user.', actor: 'ada', from: '2025-03-10', to: '2025-03-12', other: 'x' })
    expect(filters).toEqual({ action: 'user.', actor: 'ada', days: [new Date(2025, 2, 10), new Date(2025, 2, 12)] })
    expect(auditFiltersToQuery(filters)).toEqual({ action: 'user.', actor: 'ada', from: '2025-03-10', to: '2025-03-12' })
  })

  it('leaves out empty filters and trims texts', () => {
    expect(auditFiltersToQuery({ action: ' ', actor: ' ada ', days: null })).toEqual({ actor: 'ada' })
    expect(auditFiltersFromQuery({})).toEqual({ action: '', actor: '', days: null })
  })

  it('ignores a range that is not one', () => {
    const ranges: [string, string][] = [['2025-03-10', ''], ['2025-02-30', '2025-03-01'], ['2025-03-12', '2025-03-10'], ['10.03.2025', '2025-03-12']]
    for (const [from, to] of ranges) {
      expect(auditFiltersFromQuery({ from, to }).days).toBeNull()
    }
    expect(auditFiltersFromQuery({ from: '2025-03-10', to: '2025-03-10' }).days).toEqual([new Date(2025, 2, 10), new Date(2025, 2, 10)])
  })
})
