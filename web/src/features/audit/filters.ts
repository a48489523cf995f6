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

/** hasDetails reports whether a record carries details worth expanding. */
export function hasDetails(details: Record<string, unknown> | null | undefined): boolean {
  return details !== null && details !== undefined && Object.keys(details).length > 0
}
