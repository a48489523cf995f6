import { deletePath, getBlob, getJSON, patchJSON, postJSON } from '../../app/pendingApi'
import { evidenceQuery, type EvidenceFilters } from './filters'
import type {
  Attachment,
  Evidence,
  EvidenceClaim,
  EvidenceLink,
  EvidenceNote,
  EvidenceUpdate,
  NewEvidence,
  Page,
  UserRef,
  Whole,
} from './types'

export type { Attachment, Evidence, EvidenceClaim, EvidenceLink, EvidenceNote, EvidenceUpdate, NewEvidence }
export { VERSION_CONFLICT } from '../../api/errors'

// The evidence API (contract sections B and C): the library, one piece of evidence with
// its review, notes, links and claims, and its attachments. Uploads go through upload.ts
// (XMLHttpRequest, for progress and cancel).

/** PICK_LIMIT is how many pieces of evidence a picker offers per search. */
export const PICK_LIMIT = 20

const one = (id: string) => `/evidence/${encodeURIComponent(id)}`

/** listEvidence lists the evidence matching the filters (GET /evidence). */
export function listEvidence(filters: EvidenceFilters, cursor?: string): Promise<Page<Evidence>> {
  return getJSON(`/evidence`, { ...evidenceQuery(filters, cursor) })
}

/** searchEvidence finds evidence by name for pickers; `scope` narrows it (e.g. `{assessment}` or `{author: 'me'}`). */
export async function searchEvidence(q: string, scope: Record<string, string> = {}): Promise<Evidence[]> {
  const page = await getJSON<Page<Evidence>>('/evidence', { ...scope, q: q.trim(), limit: PICK_LIMIT, sort: 'name' })
  return page.items ?? []
}

/** fetchEvidence reads one piece of evidence; 404 for one unknown or not visible. */
export function fetchEvidence(id: string): Promise<Evidence> {
  return getJSON(one(id))
}

/** createEvidence adds evidence authored by the caller (201, in_progress). */
export function createEvidence(input: NewEvidence): Promise<Evidence> {
  return postJSON('/evidence', input)
}

/** updateEvidence changes the descriptor; locked evidence is 409 conflict (reason in details). */
export function updateEvidence(id: string, update: EvidenceUpdate): Promise<Evidence> {
  return patchJSON(one(id), update)
}

/** deleteEvidence removes evidence and its files. */
export function deleteEvidence(id: string, version: number): Promise<void> {
  return deletePath(one(id), { version })
}

/** submitEvidence sends in-progress evidence to a reviewer who is not its author. */
export function submitEvidence(id: string, version: number, reviewerId: string): Promise<Evidence> {
  return postJSON(`${one(id)}/submit`, { version, reviewerId })
}

/** approveEvidence approves evidence in review (the assigned reviewer only): it becomes claimed. */
export function approveEvidence(id: string, version: number): Promise<Evidence> {
  return postJSON(`${one(id)}/approve`, { version })
}

/** rejectEvidence returns evidence in review to its author with a note. */
export function rejectEvidence(id: string, version: number, note: string): Promise<Evidence> {
  return postJSON(`${one(id)}/reject`, { version, note })
}

/** listNotes reads a page of the evidence's notes, newest first. */
export function listNotes(id: string, cursor?: string): Promise<Page<EvidenceNote>> {
  return getJSON(`${one(id)}/notes`, { cursor, limit: 50 })
}

/** addNote adds a note to the evidence. */
export function addNote(id: string, content: string): Promise<EvidenceNote> {
  return postJSON(`${one(id)}/notes`, { content })
}

/** listLinks reads the assessment requirements the evidence is linked to (visible ones). */
export async function listLinks(id: string): Promise<EvidenceLink[]> {
  return (await getJSON<Whole<EvidenceLink>>(`${one(id)}/links`)).items ?? []
}

/** linkEvidence links the evidence to an assessment requirement (ar_…). */
export function linkEvidence(id: string, assessmentRequirementId: string): Promise<EvidenceLink> {
  return postJSON(`${one(id)}/links`, { assessmentRequirementId })
}

/** unlinkEvidence removes a link to an assessment requirement. */
export function unlinkEvidence(id: string, assessmentRequirementId: string): Promise<void> {
  return deletePath(`${one(id)}/links/${encodeURIComponent(assessmentRequirementId)}`)
}

/** listEvidenceClaims reads the claims citing the evidence (visible ones). */
export async function listEvidenceClaims(id: string): Promise<EvidenceClaim[]> {
  return (await getJSON<Whole<EvidenceClaim>>(`${one(id)}/claims`)).items ?? []
}

/** listAttachments reads the evidence's files. */
export async function listAttachments(id: string): Promise<Attachment[]> {
  return (await getJSON<Whole<Attachment>>(`${one(id)}/attachments`)).items ?? []
}

/** attachmentsPath is where files of the evidence are uploaded (POST, multipart field `file`). */
export function attachmentsPath(id: string): string {
  return `/api/v1${one(id)}/attachments`
}

/** contentPath is the download address of an attachment's bytes. */
export function contentPath(evidenceId: string, attachmentId: string): string {
  return `/api/v1${one(evidenceId)}/attachments/${encodeURIComponent(attachmentId)}/content`
}

/** fetchAttachmentContent reads an attachment's bytes with the session (the server checks their hash first). */
export function fetchAttachmentContent(evidenceId: string, attachmentId: string, signal?: AbortSignal): Promise<Blob> {
  return getBlob(`${one(evidenceId)}/attachments/${encodeURIComponent(attachmentId)}/content`, signal)
}

/** deleteAttachment removes a file of the evidence. */
export function deleteAttachment(evidenceId: string, attachmentId: string): Promise<void> {
  return deletePath(`${one(evidenceId)}/attachments/${encodeURIComponent(attachmentId)}`)
}

/** fetchMentionable reads the people of an assessment (its team and evidence participants). */
export async function fetchMentionable(assessmentId: string): Promise<UserRef[]> {
  return (await getJSON<Whole<UserRef>>(`/assessments/${encodeURIComponent(assessmentId)}/mentionable`)).items ?? []
}
