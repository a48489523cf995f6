import { api, unwrap } from '../../api/client'
import type { Evidence, EvidenceLink, EvidenceUpdate, NewEvidence } from './types'

// The evidence operations more than one feature needs (the evidence library and the
// assessment workspace): read, create and edit a piece of evidence, find evidence for a
// picker, link it to an assessment requirement, and where its files are uploaded.

const byId = (id: string) => ({ params: { path: { id } } })

/** PICK_LIMIT is how many pieces of evidence a picker offers per search. */
export const PICK_LIMIT = 20

/** EvidenceScope narrows a picker's search: the caller's own, an assessment's, a requirement's. */
export interface EvidenceScope {
  author?: string
  assessment?: string
  requirement?: string
}

/** searchEvidence finds evidence by name for pickers, narrowed by `scope`. */
export async function searchEvidence(q: string, scope: EvidenceScope = {}): Promise<Evidence[]> {
  const text = q.trim()
  const query = { ...scope, ...(text ? { q: text } : {}), limit: PICK_LIMIT, sort: 'name' as const }
  const page = await unwrap(api.GET('/api/v1/evidence', { params: { query } }))
  return (page.items ?? []) as Evidence[]
}

/** fetchEvidence reads one piece of evidence; 404 for one unknown or not visible. */
export async function fetchEvidence(id: string): Promise<Evidence> {
  return (await unwrap(api.GET('/api/v1/evidence/{id}', byId(id)))) as Evidence
}

/** createEvidence adds evidence authored by the caller (201, in_progress). */
export async function createEvidence(input: NewEvidence): Promise<Evidence> {
  return (await unwrap(api.POST('/api/v1/evidence', { body: input }))) as Evidence
}

/** updateEvidence changes the descriptor; locked evidence is 409 conflict (reason in details). */
export async function updateEvidence(id: string, update: EvidenceUpdate): Promise<Evidence> {
  return (await unwrap(api.PATCH('/api/v1/evidence/{id}', { ...byId(id), body: update }))) as Evidence
}

/** linkEvidence links the evidence to an assessment requirement (ar_…). */
export function linkEvidence(id: string, assessmentRequirementId: string): Promise<EvidenceLink> {
  return unwrap(api.POST('/api/v1/evidence/{id}/links', { ...byId(id), body: { assessmentRequirementId } }))
}

/** attachmentsPath is where files of the evidence are uploaded (POST, multipart field `file`). */
export function attachmentsPath(id: string): string {
  return `/api/v1/evidence/${encodeURIComponent(id)}/attachments`
}
