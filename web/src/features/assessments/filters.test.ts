import { describe, expect, it } from 'vitest'
import {
  activeFilterCount,
  assessmentFiltersFromQuery,
  assessmentFiltersToQuery,
  assessmentQuery,
  dueBeforeFor,
  emptyAssessmentFilters,
  isFiltered,
} from './filters'

describe('assessment filters and the URL', () => {
  it('round-trips every filter through the query', () => {
    const filters = {
      q: 'shop', state: 'in_progress' as const, project: 'pr_1', entity: 'en_1', standard: 'st_1', tag: 'tg_1',
      mine: true, due: '7d' as const, sort: 'dueDate' as const,
    }
    const query = assessmentFiltersToQuery(filters)
    expect(query).toEqual({ q: 'shop', state: 'in_progress', project: 'pr_1', entity: 'en_1', standard: 'st_1', tag: 'tg_1', due: '7d', mine: 'true', sort: 'dueDate' })
    expect(assessmentFiltersFromQuery(query as Record<string, string>)).toEqual(filters)
  })

  it('leaves the defaults out of the URL and ignores values it does not know', () => {
    expect(assessmentFiltersToQuery(emptyAssessmentFilters())).toEqual({})
    expect(assessmentFiltersFromQuery({ state: 'bogus', sort: 'nope', due: 'later', mine: '1', q: ['a', 'b'] })).toEqual({
      ...emptyAssessmentFilters(), q: 'a',
    })
  })

  it('turns the due filter into overdue or a dueBefore day counted from today', () => {
    const today = new Date(2026, 0, 30)
    expect(dueBeforeFor('7d', today)).toBe('2026-02-07')
    expect(dueBeforeFor('30d', today)).toBe('2026-03-02')
    expect(assessmentQuery({ ...emptyAssessmentFilters(), due: 'overdue' }, undefined, today)).toEqual({ limit: 50, overdue: true })
    expect(assessmentQuery({ ...emptyAssessmentFilters(), due: '7d', mine: true, q: '  x ' }, 'c1', today)).toEqual({
      limit: 50, dueBefore: '2026-02-07', mine: true, q: 'x', cursor: 'c1',
    })
  })

  it('knows when the list is narrowed (the sort alone does not narrow it)', () => {
    expect(isFiltered({ ...emptyAssessmentFilters(), sort: 'title' })).toBe(false)
    expect(isFiltered({ ...emptyAssessmentFilters(), mine: true })).toBe(true)
  })

  it('counts the filters beside the search box for the phone toolbar', () => {
    expect(activeFilterCount({ ...emptyAssessmentFilters(), q: 'shop', sort: 'title' })).toBe(0)
    expect(activeFilterCount({ ...emptyAssessmentFilters(), state: 'new', mine: true, due: 'overdue', tag: 'tg_1' })).toBe(4)
  })
})
