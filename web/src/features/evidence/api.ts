import { api, unwrap } from '../../api/client'
import { attachmentsPath } from '../../resources/evidence/api'
import type {
  Attachment,
  Evidence,
  EvidenceClaim,
  EvidenceLink,
  EvidenceNote,
  EvidenceUpdate,
  NewEvidence,
  Page,
} from '../../resources/evidence/types'
import { evidenceQuery, type EvidenceFilters } from './filters'

export type { Attachment, Evidence, EvidenceClaim, EvidenceLink, EvidenceNote, EvidenceUpdate, NewEvidence }
export { VERSION_CONFLICT } from '../../api/errors'
// The operations the shared evidence components use too live in src/resources/evidence/api.ts.
export {
  attachmentsPath,
  createEvidence,
  fetchEvidence,
  linkEvidence,
  PICK_LIMIT,
  searchEvidence,
  updateEvidence,
  type EvidenceScope,
} from '../../resources/evidence/api'

// The evidence API (contract sections B and C) through the typed client: the library,
// one piece of evidence with its review, notes, links and citing claims, and its
// attachments. Uploads go through src/resources/evidence/upload.ts (XMLHttpRequest, for progress and cancel).
// The server sends null for a reviewer not yet chosen and for users whose account is
// gone; the types here say so, hence the casts from the generated ones.

const byId = (id: string) => ({ params: { path: { id } } })

/** listEvidence lists the evidence matching the filters (GET /evidence). */
export async function listEvidence(filters: EvidenceFilters, cursor?: string): Promise<Page<Evidence>> {
  return (await unwrap(api.GET('/api/v1/evidence', { params: { query: evidenceQuery(filters, cursor) } }))) as Page<Evidence>
}

/** deleteEvidence removes evidence and its files. */
export async function deleteEvidence(id: string, version: number): Promise<void> {
  await unwrap(api.DELETE('/api/v1/evidence/{id}', { params: { path: { id }, query: { version } } }))
}

/** submitEvidence sends in-progress evidence to a reviewer who is not its author. */
export async function submitEvidence(id: string, version: number, reviewerId: string): Promise<Evidence> {
  return (await unwrap(api.POST('/api/v1/evidence/{id}/submit', { ...byId(id), body: { version, reviewerId } }))) as Evidence
}

/** approveEvidence approves evidence in review (the assigned reviewer only): it becomes claimed. */
export async function approveEvidence(id: string, version: number): Promise<Evidence> {
  return (await unwrap(api.POST('/api/v1/evidence/{id}/approve', { ...byId(id), body: { version } }))) as Evidence
}

/** rejectEvidence returns evidence in review to its author with a note. */
export async function rejectEvidence(id: string, version: number, note: string): Promise<Evidence> {
  return (await unwrap(api.POST('/api/v1/evidence/{id}/reject', { ...byId(id), body: { version, note } }))) as Evidence
}

/** listNotes reads a page of the evidence's notes, newest first. */
export async function listNotes(id: string, cursor?: string): Promise<Page<EvidenceNote>> {
  const query = { limit: 50, ...(cursor ? { cursor } : {}) }
  return (await unwrap(api.GET('/api/v1/evidence/{id}/notes', { params: { path: { id }, query } }))) as Page<EvidenceNote>
}

/** addNote adds a note to the evidence. */
export async function addNote(id: string, content: string): Promise<EvidenceNote> {
  return (await unwrap(api.POST('/api/v1/evidence/{id}/notes', { ...byId(id), body: { content } }))) as EvidenceNote
}

/** listLinks reads the assessment requirements the evidence is linked to (visible ones). */
export async function listLinks(id: string): Promise<EvidenceLink[]> {
  return (await unwrap(api.GET('/api/v1/evidence/{id}/links', byId(id)))).items ?? []
}

/** unlinkEvidence removes a link to an assessment requirement. */
export async function unlinkEvidence(id: string, assessmentRequirementId: string): Promise<void> {
  await unwrap(api.DELETE('/api/v1/evidence/{id}/links/{arId}', { params: { path: { id, arId: assessmentRequirementId } } }))
}

/** listEvidenceClaims reads a page of the claims citing the evidence (visible ones), oldest first. */
export function listEvidenceClaims(id: string, cursor?: string): Promise<Page<EvidenceClaim>> {
  return unwrap(api.GET('/api/v1/evidence/{id}/claims', { params: { path: { id }, query: { cursor, limit: 50 } } }))
}

/** listAttachments reads the evidence's files. */
export async function listAttachments(id: string): Promise<Attachment[]> {
  return ((await unwrap(api.GET('/api/v1/evidence/{id}/attachments', byId(id)))).items ?? []) as Attachment[]
}

/** contentPath is the download address of an attachment's bytes. */
export function contentPath(evidenceId: string, attachmentId: string): string {
  return `${attachmentsPath(evidenceId)}/${encodeURIComponent(attachmentId)}/content`
}

/** fetchAttachmentContent reads an attachment's bytes with the session (the server checks their hash first). */
export async function fetchAttachmentContent(evidenceId: string, attachmentId: string, signal?: AbortSignal): Promise<Blob> {
  const params = { params: { path: { id: evidenceId, attId: attachmentId } }, parseAs: 'blob' as const, signal }
  return (await unwrap(api.GET('/api/v1/evidence/{id}/attachments/{attId}/content', params))) as Blob
}

/** deleteAttachment removes a file of the evidence. */
export async function deleteAttachment(evidenceId: string, attachmentId: string): Promise<void> {
  await unwrap(api.DELETE('/api/v1/evidence/{id}/attachments/{attId}', { params: { path: { id: evidenceId, attId: attachmentId } } }))
}
