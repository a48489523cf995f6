import type { LocationQuery, LocationQueryRaw } from 'vue-router'
import { queryChoice, queryText } from '../../app/queryFilters'
import { ENTITY_STATES, ENTITY_TYPES, type EntityState, type EntityType } from './types'

// The entity list's filters, kept in the URL's query so a filtered list can be
// bookmarked, shared and restored with the browser's back button.

/** ENTITY_PAGE_SIZE is how many entities one page lists. */
export const ENTITY_PAGE_SIZE = 50

/** EntitySort is the list's order: by name, or newest first. */
export type EntitySort = 'name' | '-createdAt'

/** EntityView is how the list page shows the entities: a table or the organisation's graph. */
export type EntityView = 'table' | 'graph'

/** EntityFilters are the list's search box, filters, sort and view; '' means "any". */
export interface EntityFilters {
  q: string
  type: EntityType | ''
  state: EntityState | ''
  tag: string
  owner: string
  sort: EntitySort
  view: EntityView
}

/** EntityQuery is the query string of GET /api/v1/entities. */
export interface EntityQuery {
  q?: string
  type?: EntityType
  state?: EntityState
  tag?: string
  owner?: string
  sort?: EntitySort
  cursor?: string
  limit: number
}

/** emptyEntityFilters is the unfiltered list, by name. */
export function emptyEntityFilters(): EntityFilters {
  return { q: '', type: '', state: '', tag: '', owner: '', sort: 'name', view: 'table' }
}


/** entityFiltersFromQuery reads the filters from a route's query; unknown values are ignored. */
export function entityFiltersFromQuery(query: LocationQuery): EntityFilters {
  return {
    q: queryText(query.q),
    type: queryChoice(queryText(query.type), ENTITY_TYPES, ''),
    state: queryChoice(queryText(query.state), ENTITY_STATES, ''),
    tag: queryText(query.tag),
    owner: queryText(query.owner),
    sort: queryText(query.sort) === '-createdAt' ? '-createdAt' : 'name',
    view: queryText(query.view) === 'graph' ? 'graph' : 'table',
  }
}

/** entityFiltersToQuery writes the filters into a route query, leaving out the defaults. */
export function entityFiltersToQuery(filters: EntityFilters): LocationQueryRaw {
  const { limit: _limit, ...query } = entityQuery(filters)
  return { ...query, ...(filters.view !== 'table' ? { view: filters.view } : {}) }
}

/**
 * entityQuery turns the filters into the list's query: the search text trimmed and
 * every empty filter left out. Without a state the server lists active and inactive
 * entities; archived ones only when the state asks for them.
 */
export function entityQuery(filters: EntityFilters, cursor?: string): EntityQuery {
  const query: EntityQuery = { limit: ENTITY_PAGE_SIZE }
  const q = filters.q.trim()
  if (q !== '') query.q = q
  if (filters.type !== '') query.type = filters.type
  if (filters.state !== '') query.state = filters.state
  if (filters.tag !== '') query.tag = filters.tag
  if (filters.owner !== '') query.owner = filters.owner
  if (filters.sort !== 'name') query.sort = filters.sort
  if (cursor) query.cursor = cursor
  return query
}

/** isFiltered reports whether any filter narrows the list (for the empty state's text). */
export function isFiltered(filters: EntityFilters): boolean {
  return filters.q.trim() !== '' || filters.type !== '' || filters.state !== '' || filters.tag !== '' || filters.owner !== ''
}

/** activeFilterCount counts the filters beside the search box that narrow the list (for the phone's "Filters" button). */
export function activeFilterCount(filters: EntityFilters): number {
  return [filters.type, filters.state, filters.tag, filters.owner].filter((value) => value !== '').length
}
