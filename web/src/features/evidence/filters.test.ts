import { describe, expect, it } from 'vitest'
import {
  activeFilterCount,
  emptyEvidenceFilters,
  evidenceFiltersFromQuery,
  evidenceFiltersToQuery,
  evidenceQuery,
  isFiltered,
} from './filters'

describe('evidence filters', () => {
  it('round-trips through the URL and leaves out the defaults', () => {
    const filters = {
      ...emptyEvidenceFilters(),
      q: ' pentest ',
      state: 'in_review' as const,
      mine: true,
      toReview: true,
      tag: 'tg_1',
      expiringWithin: 30,
      counter: true,
      sort: 'validUntil' as const,
    }
    const query = evidenceFiltersToQuery(filters)
    expect(query).toEqual({
      q: 'pentest',
      state: 'in_review',
      author: 'me',
      reviewer: 'me',
      tag: 'tg_1',
      expiringWithin: '30',
      counter: 'true',
      sort: 'validUntil',
    })
    expect(evidenceFiltersFromQuery(query as never)).toEqual({ ...filters, q: 'pentest' })
    expect(evidenceFiltersToQuery(emptyEvidenceFilters())).toEqual({})
  })

  it('ignores what it does not understand', () => {
    expect(evidenceFiltersFromQuery({ state: 'lost', sort: 'size', expiringWithin: '-3', author: 'u_1', counter: 'yes' })).toEqual(
      emptyEvidenceFilters(),
    )
  })

  it('asks the server with the cursor and page size', () => {
    expect(evidenceQuery(emptyEvidenceFilters(), 'c1')).toEqual({ limit: 50, cursor: 'c1' })
    expect(isFiltered(emptyEvidenceFilters())).toBe(false)
    expect(isFiltered({ ...emptyEvidenceFilters(), sort: 'name' })).toBe(false)
    expect(isFiltered({ ...emptyEvidenceFilters(), counter: true })).toBe(true)
  })

  it('counts the toolbar filters beside the search box for the phone toolbar', () => {
    expect(activeFilterCount({ ...emptyEvidenceFilters(), q: 'scan', sort: 'name', assessment: 'as_1' })).toBe(0)
    expect(activeFilterCount({ ...emptyEvidenceFilters(), state: 'claimed', mine: true, counter: true, expiringWithin: 30 })).toBe(4)
  })
})
