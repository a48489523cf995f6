import { describe, expect, it } from 'vitest'
import {
  activeFilterCount,
  emptyEntityFilters,
  ENTITY_PAGE_SIZE,
  entityFiltersFromQuery,
  entityFiltersToQuery,
  entityQuery,
  isFiltered,
} from './filters'

describe('entity filters', () => {
  it('ask the server for active and inactive entities by default: archived ones only when chosen', () => {
    expect(entityQuery(emptyEntityFilters())).toEqual({ limit: ENTITY_PAGE_SIZE })
    expect(entityQuery({ ...emptyEntityFilters(), state: 'archived' })).toEqual({ limit: ENTITY_PAGE_SIZE, state: 'archived' })
  })

  it('send every filter that narrows the list, the search trimmed, and the cursor', () => {
    const filters = { ...emptyEntityFilters(), q: '  pay ', type: 'service' as const, tag: 'tg_1', owner: 'u_1', sort: '-createdAt' as const }
    expect(entityQuery(filters, 'c2')).toEqual({
      limit: ENTITY_PAGE_SIZE,
      q: 'pay',
      type: 'service',
      tag: 'tg_1',
      owner: 'u_1',
      sort: '-createdAt',
      cursor: 'c2',
    })
    expect(isFiltered(filters)).toBe(true)
    expect(isFiltered({ ...emptyEntityFilters(), sort: '-createdAt' })).toBe(false)
  })

  it('survive a round trip through the URL, leaving defaults out', () => {
    const filters = { ...emptyEntityFilters(), q: 'acme', state: 'inactive' as const, view: 'graph' as const }
    const query = entityFiltersToQuery(filters)
    expect(query).toEqual({ q: 'acme', state: 'inactive', view: 'graph' })
    expect(entityFiltersFromQuery(query as Record<string, string>)).toEqual(filters)
    expect(entityFiltersToQuery(emptyEntityFilters())).toEqual({})
  })

  it('ignore values from the URL that are not theirs', () => {
    const filters = entityFiltersFromQuery({ type: 'planet', state: 'gone', sort: 'size', view: 'map', tag: ['tg_1', 'tg_2'] })
    expect(filters).toEqual({ ...emptyEntityFilters(), tag: 'tg_1' })
  })

  it('count the narrowing filters beside the search box, for the phone', () => {
    expect(activeFilterCount({ ...emptyEntityFilters(), q: 'shop', sort: '-createdAt' })).toBe(0)
    expect(activeFilterCount({ ...emptyEntityFilters(), type: 'service', owner: 'us_1' })).toBe(2)
  })
})
