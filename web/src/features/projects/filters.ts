import type { LocationQuery, LocationQueryRaw } from 'vue-router'
import { queryChoice, queryText } from '../../app/queryFilters'
import { PROJECT_STATES, type ProjectState } from './types'

// The project list's filters, kept in the URL's query so a filtered list can be
// bookmarked, shared and restored with the browser's back button.

/** PROJECT_PAGE_SIZE is how many projects one page lists. */
export const PROJECT_PAGE_SIZE = 50

/** PROJECT_SORTS are the orders the server offers: by name, newest first, soonest due first. */
export const PROJECT_SORTS = ['name', '-createdAt', 'dueDate'] as const

/** ProjectSort is one of PROJECT_SORTS. */
export type ProjectSort = (typeof PROJECT_SORTS)[number]

/** ProjectFilters are the list's search box, filters and sort; '' means "any". */
export interface ProjectFilters {
  q: string
  state: ProjectState | ''
  tag: string
  standard: string
  entity: string
  /** archived lists only archived projects (they are hidden otherwise). */
  archived: boolean
  sort: ProjectSort
}

/** ProjectQuery is the query string of GET /api/v1/projects. */
export interface ProjectQuery {
  q?: string
  state?: ProjectState
  tag?: string
  standard?: string
  entity?: string
  archived?: boolean
  sort?: ProjectSort
  cursor?: string
  limit: number
}

/** emptyProjectFilters is the unfiltered list of projects not archived, by name. */
export function emptyProjectFilters(): ProjectFilters {
  return { q: '', state: '', tag: '', standard: '', entity: '', archived: false, sort: 'name' }
}

/** projectFiltersFromQuery reads the filters from a route's query; unknown values are ignored. */
export function projectFiltersFromQuery(query: LocationQuery): ProjectFilters {
  return {
    q: queryText(query.q),
    state: queryChoice(queryText(query.state), PROJECT_STATES, ''),
    tag: queryText(query.tag),
    standard: queryText(query.standard),
    entity: queryText(query.entity),
    archived: queryText(query.archived) === 'true',
    sort: queryChoice(queryText(query.sort), PROJECT_SORTS, 'name'),
  }
}

/** projectFiltersToQuery writes the filters into a route query, leaving out the defaults. */
export function projectFiltersToQuery(filters: ProjectFilters): LocationQueryRaw {
  const { limit: _limit, archived, ...rest } = projectQuery(filters)
  return { ...rest, ...(archived ? { archived: 'true' } : {}) }
}

/** projectQuery turns the filters into the list's query, leaving out what does not narrow it. */
export function projectQuery(filters: ProjectFilters, cursor?: string): ProjectQuery {
  const query: ProjectQuery = { limit: PROJECT_PAGE_SIZE }
  const q = filters.q.trim()
  if (q !== '') query.q = q
  if (filters.state !== '') query.state = filters.state
  if (filters.tag !== '') query.tag = filters.tag
  if (filters.standard !== '') query.standard = filters.standard
  if (filters.entity !== '') query.entity = filters.entity
  if (filters.archived) query.archived = true
  if (filters.sort !== 'name') query.sort = filters.sort
  if (cursor) query.cursor = cursor
  return query
}

/** isFiltered reports whether any filter narrows the list (for the empty state's text). */
export function isFiltered(filters: ProjectFilters): boolean {
  const { limit: _limit, sort: _sort, ...narrowing } = projectQuery(filters)
  return Object.keys(narrowing).length > 0
}

/** activeFilterCount counts the filters beside the search box that narrow the list (for the phone's "Filters" button). */
export function activeFilterCount(filters: ProjectFilters): number {
  const { limit: _limit, sort: _sort, q: _q, ...narrowing } = projectQuery(filters)
  return Object.keys(narrowing).length
}
