import type { LocationQuery, LocationQueryRaw } from 'vue-router'
import { queryText } from '../../app/queryFilters'

/** AUDIT_PAGE_SIZE is how many records one page lists. */
export const AUDIT_PAGE_SIZE = 50

/** AuditFilters are the audit log's filters; `days` is the picked date range, first and last day. */
export interface AuditFilters {
  action: string
  actor: string
  days: [Date, Date] | null
}

/** AuditQuery is the query string of GET /api/v1/audit. */
export interface AuditQuery {
  action?: string
  actor?: string
  from?: string
  to?: string
  cursor?: string
  limit: number
}

function startOfDay(day: Date, offsetDays = 0): Date {
  return new Date(day.getFullYear(), day.getMonth(), day.getDate() + offsetDays)
}

/**
 * auditQuery turns the filters into the log's query. Texts are trimmed and empty
 * ones left out. The date range covers whole days in the viewer's time zone:
 * `from` is the start of the first day, and `to` (which the server treats as
 * "before") the start of the day after the last, so the last day is included.
 */
export function auditQuery(filters: AuditFilters, cursor?: string): AuditQuery {
  const query: AuditQuery = { limit: AUDIT_PAGE_SIZE }
  const action = filters.action.trim()
  const actor = filters.actor.trim()
  if (action !== '') query.action = action
  if (actor !== '') query.actor = actor
  if (filters.days) {
    query.from = startOfDay(filters.days[0]).toISOString()
    query.to = startOfDay(filters.days[1], 1).toISOString()
  }
  if (cursor) query.cursor = cursor
  return query
}

/** dayText is a calendar day in the viewer's time zone as YYYY-MM-DD. */
function dayText(day: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`
}

/** parseDay reads YYYY-MM-DD as the start of that day in the viewer's time zone, or null. */
function parseDay(text: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (!m) return null
  const day = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
  return dayText(day) === text ? day : null
}

/**
 * auditFiltersFromQuery reads the filters from a route's query — action, actor, and the
 * days as `from` and `to` (first and last day, YYYY-MM-DD) — ignoring what it does not
 * understand: a range with a day missing, malformed or after the other is no range.
 */
export function auditFiltersFromQuery(query: LocationQuery): AuditFilters {
  const from = parseDay(queryText(query.from))
  const to = parseDay(queryText(query.to))
  return {
    action: queryText(query.action),
    actor: queryText(query.actor),
    days: from && to && from <= to ? [from, to] : null,
  }
}

/** auditFiltersToQuery writes the filters into a route query, leaving out what does not narrow the log. */
export function auditFiltersToQuery(filters: AuditFilters): LocationQueryRaw {
  const query: LocationQueryRaw = {}
  const action = filters.action.trim()
  const actor = filters.actor.trim()
  if (action !== '') query.action = action
  if (actor !== '') query.actor = actor
  if (filters.days) {
    query.from = dayText(filters.days[0])
    query.to = dayText(filters.days[1])
  }
  return query
}

/** hasDetails reports whether a record carries details worth expanding. */
export function hasDetails(details: Record<string, unknown> | null | undefined): boolean {
  return details !== null && details !== undefined && Object.keys(details).length > 0
}
