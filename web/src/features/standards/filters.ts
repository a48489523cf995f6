import type { LocationQuery, LocationQueryRaw } from 'vue-router'
import { queryChoice, queryText } from '../../app/queryFilters'
import { STANDARD_STATES, type StandardState } from './types'

// The standard list's filters, their query string for the server, and their place in the
// page's URL (so a filtered list can be bookmarked, shared and restored with Back).

/** StandardSort is the list's order: name (default), newest first, or identifier then version. */
export type StandardSort = 'name' | '-createdAt' | 'identifier'

/** STANDARD_SORTS lists the orders the list offers. */
export const STANDARD_SORTS: readonly StandardSort[] = ['name', '-createdAt', 'identifier']

/** StandardFilters are the list's search box, filters and order; '' is "any". */
export interface StandardFilters {
  q: string
  state: StandardState | ''
  owner: string
  tag: string
  /** Only the versions of one identifier (from a "versions" link). */
  identifier: string
  sort: StandardSort
}

/** STANDARD_PAGE_SIZE is how many standards one page lists. */
export const STANDARD_PAGE_SIZE = 50

/** VERSIONS_PAGE_SIZE is how many versions the detail's versions tab reads per page. */
export const VERSIONS_PAGE_SIZE = 50

/** StandardListQuery is the query string of GET /api/v1/standards. */
export interface StandardListQuery {
  q?: string
  state?: StandardState
  owner?: string
  tag?: string
  identifier?: string
  sort?: StandardSort
  cursor?: string
  limit: number
}

/** emptyFilters are the filters of the unfiltered list. */
export function emptyFilters(): StandardFilters {
  return { q: '', state: '', owner: '', tag: '', identifier: '', sort: 'name' }
}

/**
 * standardQuery turns the filters into the list's query: texts trimmed, every empty
 * filter and the default order left out, so the server sees only what narrows the list.
 */
export function standardQuery(filters: StandardFilters, cursor?: string): StandardListQuery {
  const query: StandardListQuery = { limit: STANDARD_PAGE_SIZE }
  const q = filters.q.trim()
  const owner = filters.owner.trim()
  if (q !== '') query.q = q
  if (filters.state !== '') query.state = filters.state
  if (owner !== '') query.owner = owner
  if (filters.tag !== '') query.tag = filters.tag
  if (filters.identifier !== '') query.identifier = filters.identifier
  if (filters.sort !== 'name') query.sort = filters.sort
  if (cursor) query.cursor = cursor
  return query
}

/** filtersFromRoute reads the filters from the page's URL query; unknown values fall back to "any". */
export function filtersFromRoute(query: LocationQuery): StandardFilters {
  return {
    q: queryText(query.q),
    state: queryChoice(queryText(query.state), STANDARD_STATES, ''),
    owner: queryText(query.owner),
    tag: queryText(query.tag),
    identifier: queryText(query.identifier),
    sort: queryChoice(queryText(query.sort), STANDARD_SORTS, 'name'),
  }
}

/** routeQueryOf writes the filters into a URL query, leaving out what is empty or the default. */
export function routeQueryOf(filters: StandardFilters): LocationQueryRaw {
  const query: LocationQueryRaw = {}
  if (filters.q !== '') query.q = filters.q
  if (filters.state !== '') query.state = filters.state
  if (filters.owner !== '') query.owner = filters.owner
  if (filters.tag !== '') query.tag = filters.tag
  if (filters.identifier !== '') query.identifier = filters.identifier
  if (filters.sort !== 'name') query.sort = filters.sort
  return query
}

/** activeFilterCount counts the filters beside the search box that narrow the list (for the phone's "Filters" button). */
export function activeFilterCount(filters: StandardFilters): number {
  return [filters.state, filters.owner.trim(), filters.tag].filter((value) => value !== '').length
}
