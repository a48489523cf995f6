import type { LocationQuery, LocationQueryRaw } from 'vue-router'
import { queryChoice, queryText } from '../../app/queryFilters'
import { EVIDENCE_STATES, type EvidenceState } from '../../resources/evidence/types'

// The evidence library's filters, kept in the URL's query so a filtered list can be
// bookmarked, shared and restored with the back button. Every filter is applied by the
// server (GET /evidence).

/** EVIDENCE_PAGE_SIZE is how many pieces of evidence one page lists. */
export const EVIDENCE_PAGE_SIZE = 50

/** EVIDENCE_SORTS are the orders the server offers: newest first, by name, soonest expiring first. */
export const EVIDENCE_SORTS = ['-createdAt', 'name', 'validUntil'] as const

/** EvidenceSort is one of EVIDENCE_SORTS. */
export type EvidenceSort = (typeof EVIDENCE_SORTS)[number]

/** EXPIRING_CHOICES are the "expiring within N days" choices the filter offers. */
export const EXPIRING_CHOICES = [7, 14, 30, 90] as const

/** EvidenceFilters are the library's search box, filters and sort; '' means "any". */
export interface EvidenceFilters {
  q: string
  state: EvidenceState | ''
  /** mine narrows to evidence the caller authored. */
  mine: boolean
  /** toReview narrows to evidence the caller is the reviewer of. */
  toReview: boolean
  assessment: string
  tag: string
  /** expiringWithin is a number of days, or 0 for no such filter. */
  expiringWithin: number
  /** counter narrows to counter-evidence. */
  counter: boolean
  sort: EvidenceSort
}

/** EvidenceQuery is the query string of GET /api/v1/evidence. */
export interface EvidenceQuery {
  q?: string
  state?: EvidenceState
  author?: string
  reviewer?: string
  assessment?: string
  tag?: string
  expiringWithin?: number
  counter?: boolean
  sort?: EvidenceSort
  cursor?: string
  limit: number
}

/** emptyEvidenceFilters is the whole library, newest first. */
export function emptyEvidenceFilters(): EvidenceFilters {
  return { q: '', state: '', mine: false, toReview: false, assessment: '', tag: '', expiringWithin: 0, counter: false, sort: '-createdAt' }
}

/** evidenceFiltersFromQuery reads the filters from a route's query; what it does not understand is ignored. */
export function evidenceFiltersFromQuery(query: LocationQuery): EvidenceFilters {
  const days = Number.parseInt(queryText(query.expiringWithin), 10)
  return {
    q: queryText(query.q),
    state: queryChoice(queryText(query.state), EVIDENCE_STATES, ''),
    mine: queryText(query.author) === 'me',
    toReview: queryText(query.reviewer) === 'me',
    assessment: queryText(query.assessment),
    tag: queryText(query.tag),
    expiringWithin: Number.isInteger(days) && days > 0 && days <= 3650 ? days : 0,
    counter: queryText(query.counter) === 'true',
    sort: queryChoice(queryText(query.sort), EVIDENCE_SORTS, '-createdAt'),
  }
}

/** evidenceQuery turns the filters into the list's query, leaving out what does not narrow it. */
export function evidenceQuery(filters: EvidenceFilters, cursor?: string): EvidenceQuery {
  const query: EvidenceQuery = { limit: EVIDENCE_PAGE_SIZE }
  const q = filters.q.trim()
  if (q !== '') query.q = q
  if (filters.state !== '') query.state = filters.state
  if (filters.mine) query.author = 'me'
  if (filters.toReview) query.reviewer = 'me'
  if (filters.assessment !== '') query.assessment = filters.assessment
  if (filters.tag !== '') query.tag = filters.tag
  if (filters.expiringWithin > 0) query.expiringWithin = filters.expiringWithin
  if (filters.counter) query.counter = true
  if (filters.sort !== '-createdAt') query.sort = filters.sort
  if (cursor) query.cursor = cursor
  return query
}

/** evidenceFiltersToQuery writes the filters into a route query, leaving out the defaults. */
export function evidenceFiltersToQuery(filters: EvidenceFilters): LocationQueryRaw {
  const { limit: _limit, expiringWithin, counter, ...rest } = evidenceQuery(filters)
  return {
    ...rest,
    ...(expiringWithin ? { expiringWithin: String(expiringWithin) } : {}),
    ...(counter ? { counter: 'true' } : {}),
  }
}

/**
 * activeFilterCount counts the toolbar's filters beside the search box that narrow the
 * list (for the phone's "Filters" button); the assessment filter has its own notice.
 */
export function activeFilterCount(filters: EvidenceFilters): number {
  const { limit: _limit, sort: _sort, q: _q, assessment: _assessment, ...narrowing } = evidenceQuery(filters)
  return Object.keys(narrowing).length
}

/** isFiltered reports whether anything narrows the list (for the empty state's text). */
export function isFiltered(filters: EvidenceFilters): boolean {
  const { limit: _limit, sort: _sort, ...narrowing } = evidenceQuery(filters)
  return Object.keys(narrowing).length > 0
}
