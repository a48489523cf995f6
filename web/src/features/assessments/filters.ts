import type { LocationQuery, LocationQueryRaw } from 'vue-router'
import { queryChoice, queryText } from '../../app/queryFilters'
import { ASSESSMENT_STATES, type AssessmentState } from './types'

// The assessment list's filters, kept in the URL's query so a filtered list can be
// bookmarked, shared and restored with the back button. Every filter runs on the server.

/** ASSESSMENT_PAGE_SIZE is how many assessments one page lists. */
export const ASSESSMENT_PAGE_SIZE = 50

/** ASSESSMENT_SORTS are the orders the server offers; newest first is the default. */
export const ASSESSMENT_SORTS = ['-createdAt', 'title', 'dueDate', '-updatedAt'] as const

/** AssessmentSort is one of ASSESSMENT_SORTS. */
export type AssessmentSort = (typeof ASSESSMENT_SORTS)[number]

/**
 * DUE_FILTERS narrow by the due date: overdue, or due within a week or a month from today.
 * The URL keeps the relative choice, so a bookmarked "due this week" stays current.
 */
export const DUE_FILTERS = ['overdue', '7d', '30d'] as const

/** DueFilter is one of DUE_FILTERS. */
export type DueFilter = (typeof DUE_FILTERS)[number]

/** AssessmentFilters are the list's search box, filters and sort; '' means "any". */
export interface AssessmentFilters {
  q: string
  state: AssessmentState | ''
  project: string
  entity: string
  standard: string
  tag: string
  /** mine lists only the assessments whose team the viewer is on. */
  mine: boolean
  due: DueFilter | ''
  sort: AssessmentSort
}

/** AssessmentQuery is the query string of GET /api/v1/assessments. */
export interface AssessmentQuery {
  q?: string
  state?: AssessmentState
  project?: string
  entity?: string
  standard?: string
  tag?: string
  mine?: boolean
  overdue?: boolean
  dueBefore?: string
  sort?: AssessmentSort
  cursor?: string
  limit: number
}

/** emptyAssessmentFilters is the unfiltered list, newest first. */
export function emptyAssessmentFilters(): AssessmentFilters {
  return { q: '', state: '', project: '', entity: '', standard: '', tag: '', mine: false, due: '', sort: '-createdAt' }
}


/** assessmentFiltersFromQuery reads the filters from a route's query; unknown values are ignored. */
export function assessmentFiltersFromQuery(query: LocationQuery): AssessmentFilters {
  return {
    q: queryText(query.q),
    state: queryChoice(queryText(query.state), ASSESSMENT_STATES, ''),
    project: queryText(query.project),
    entity: queryText(query.entity),
    standard: queryText(query.standard),
    tag: queryText(query.tag),
    mine: queryText(query.mine) === 'true',
    due: queryChoice(queryText(query.due), DUE_FILTERS, ''),
    sort: queryChoice(queryText(query.sort), ASSESSMENT_SORTS, '-createdAt'),
  }
}

/** assessmentFiltersToQuery writes the filters into a route query, leaving out the defaults. */
export function assessmentFiltersToQuery(filters: AssessmentFilters): LocationQueryRaw {
  const query: LocationQueryRaw = {}
  const q = filters.q.trim()
  if (q !== '') query.q = q
  for (const key of ['state', 'project', 'entity', 'standard', 'tag', 'due'] as const) {
    if (filters[key] !== '') query[key] = filters[key]
  }
  if (filters.mine) query.mine = 'true'
  if (filters.sort !== '-createdAt') query.sort = filters.sort
  return query
}

/** isoDay renders a date as YYYY-MM-DD in local time. */
export function isoDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

/** dueBeforeFor is the dueBefore date of a "due within" filter, counted from `today` (exclusive bound). */
export function dueBeforeFor(due: '7d' | '30d', today: Date): string {
  const days = due === '7d' ? 7 : 30
  const bound = new Date(today.getFullYear(), today.getMonth(), today.getDate() + days + 1)
  return isoDay(bound)
}

/** assessmentQuery turns the filters into the list's query, leaving out what does not narrow it. */
export function assessmentQuery(filters: AssessmentFilters, cursor?: string, today: Date = new Date()): AssessmentQuery {
  const query: AssessmentQuery = { limit: ASSESSMENT_PAGE_SIZE }
  const q = filters.q.trim()
  if (q !== '') query.q = q
  if (filters.state !== '') query.state = filters.state
  for (const key of ['project', 'entity', 'standard', 'tag'] as const) {
    if (filters[key] !== '') query[key] = filters[key]
  }
  if (filters.mine) query.mine = true
  if (filters.due === 'overdue') query.overdue = true
  else if (filters.due !== '') query.dueBefore = dueBeforeFor(filters.due, today)
  if (filters.sort !== '-createdAt') query.sort = filters.sort
  if (cursor) query.cursor = cursor
  return query
}

/** activeFilterCount counts the filters beside the search box that narrow the list (for the phone's "Filters" button). */
export function activeFilterCount(filters: AssessmentFilters): number {
  const { sort: _sort, q: _q, ...rest } = assessmentFiltersToQuery(filters)
  return Object.keys(rest).length
}

/** isFiltered reports whether any filter narrows the list (for the empty state's text). */
export function isFiltered(filters: AssessmentFilters): boolean {
  const { sort: _sort, ...rest } = assessmentFiltersToQuery(filters)
  return Object.keys(rest).length > 0
}
