import { describe, expect, it } from 'vitest'
import { activeFilterCount, emptyProjectFilters, isFiltered, PROJECT_PAGE_SIZE, projectFiltersFromQuery, projectFiltersToQuery, projectQuery } from './filters'

describe('project filters', () => {
  it('list projects that are not archived, by name, by default', () => {
    expect(projectQuery(emptyProjectFilters())).toEqual({ limit: PROJECT_PAGE_SIZE })
    expect(isFiltered(emptyProjectFilters())).toBe(false)
  })

  it('send every filter that narrows the list', () => {
    const filters = {
      ...emptyProjectFilters(),
      q: ' shop ',
      state: 'in_progress' as const,
      tag: 'tg_1',
      standard: 'st_1',
      entity: 'en_1',
      archived: true,
      sort: 'dueDate' as const,
    }
    expect(projectQuery(filters, 'c1')).toEqual({
      limit: PROJECT_PAGE_SIZE,
      q: 'shop',
      state: 'in_progress',
      tag: 'tg_1',
      standard: 'st_1',
      entity: 'en_1',
      archived: true,
      sort: 'dueDate',
      cursor: 'c1',
    })
    expect(isFiltered(filters)).toBe(true)
  })

  it('survive a round trip through the URL and ignore unknown values', () => {
    const filters = { ...emptyProjectFilters(), state: 'on_hold' as const, archived: true, sort: '-createdAt' as const }
    const query = projectFiltersToQuery(filters)
    expect(query).toEqual({ state: 'on_hold', archived: 'true', sort: '-createdAt' })
    expect(projectFiltersFromQuery(query as Record<string, string>)).toEqual(filters)
    expect(projectFiltersFromQuery({ state: 'done', sort: 'size', archived: 'yes' })).toEqual(emptyProjectFilters())
  })

  it('counts the narrowing filters beside the search box, for the phone', () => {
    expect(activeFilterCount({ ...emptyProjectFilters(), q: 'shop', sort: 'dueDate' })).toBe(0)
    expect(activeFilterCount({ ...emptyProjectFilters(), state: 'in_progress', entity: 'en_1', archived: true })).toBe(3)
  })
})
