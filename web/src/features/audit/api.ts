import { api, unwrap } from '../../api/client'
import type { components } from '../../api/schema'
import { auditQuery, type AuditFilters } from './filters'

/** AuditRecord is one entry of the audit log. */
export type AuditRecord = components['schemas']['AuditRecord']

/** AuditPage is one page of the audit log, newest first. */
export type AuditPage = components['schemas']['PageAuditRecord']

/** listAudit reads the audit log matching the filters (GET /api/v1/audit). */
export function listAudit(filters: AuditFilters, cursor?: string): Promise<AuditPage> {
  return unwrap(api.GET('/api/v1/audit', { params: { query: auditQuery(filters, cursor) } }))
}
