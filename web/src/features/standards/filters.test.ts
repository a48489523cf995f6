import { describe, expect, it } from 'vitest'
import { activeFilterCount, emptyFilters, filtersFromRoute, routeQueryOf, STANDARD_PAGE_SIZE, standardQuery } from './filters'

describe('standardQuery', () => {
  it('asks for the first page, sorted by name, when nothing narrows the list', () => {
    expect(standardQuery(emptyFilters())).toEqual({ limit: STANDARD_PAGE_SIZE })
  })

  it('sends every filter set, texts trimmed, with the cursor', () => {
    const filters = { q: '  asvs ', state: 'published' as const, owner: ' OWASP ', tag: 'tg_1', identifier: 'owasp-asvs', sort: '-createdAt' as const }
    expect(standardQuery(filters, 'c2')).toEqual({
      q: 'asvs',
      state: 'published',
      owner: 'OWASP',
      tag: 'tg_1',
      identifier: 'owasp-asvs',
      sort: '-createdAt',
      cursor: 'c2',
      limit: STANDARD_PAGE_SIZE,
    })
  })

  it('leaves out blank texts', () => {
    expect(standardQuery({ ...emptyFilters(), q: '   ', owner: ' ' })).toEqual({ limit: STANDARD_PAGE_SIZE })
  })
})

describe('the filters in the URL', () => {
  it('round-trips through the query', () => {
    const filters = { q: 'web', state: 'in_review' as const, owner: 'NIST', tag: 'tg_2', identifier: '', sort: 'identifier' as const }
    const query = routeQueryOf(filters)
    expect(query).toEqual({ q: 'web', state: 'in_review', owner: 'NIST', tag: 'tg_2', sort: 'identifier' })
    expect(filtersFromRoute(query as Record<string, string>)).toEqual(filters)
  })

  it('writes nothing for the unfiltered list', () => {
    expect(routeQueryOf(emptyFilters())).toEqual({})
  })

  it('ignores unknown states and sorts and takes the first of repeated values', () => {
    expect(filtersFromRoute({ state: 'lost', sort: 'size', q: ['a', 'b'] })).toEqual({ ...emptyFilters(), q: 'a' })
  })
})

describe('activeFilterCount', () => {
  it('counts the narrowing filters beside the search box, for the phone', () => {
    expect(activeFilterCount({ ...emptyFilters(), q: 'asvs', sort: 'identifier', owner: '  ' })).toBe(0)
    expect(activeFilterCount({ ...emptyFilters(), state: 'draft', owner: 'OWASP', tag: 'tg_1' })).toBe(3)
  })
})
