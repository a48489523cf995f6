import { describe, expect, it } from 'vitest'
import { activeFilterCount, portfolioFiltersFromQuery, portfolioFiltersToQuery } from './filters'

describe('portfolio filters', () => {
  it('read the query, ignoring what they do not know', () => {
    expect(portfolioFiltersFromQuery({ q: 'shop', project: 'pr_1', entityType: 'planet', other: 'x' })).toEqual({ q: 'shop', project: 'pr_1', entityType: '' })
    expect(portfolioFiltersFromQuery({ entityType: ['service', 'team'] })).toEqual({ q: '', project: '', entityType: 'service' })
  })

  it('write only what is set, and count it', () => {
    const f = { q: '  shop ', project: '', entityType: 'service' as const }
    expect(portfolioFiltersToQuery(f)).toEqual({ q: 'shop', entityType: 'service' })
    expect(activeFilterCount(f)).toBe(2)
    expect(activeFilterCount({ q: ' ', project: '', entityType: '' })).toBe(0)
  })
})
