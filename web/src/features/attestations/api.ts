import { api, unwrap } from '../../api/client'
import { networkError, toApiError } from '../../api/errors'
import { listAllClaims } from '../../resources/claims/api'
import { attestationQuery, type AttestationFilters } from './filters'
import type { JsfSigner } from './jsf'
import type {
  Assessment,
  Assessor,
  AssessorUpdate,
  Attestation,
  AttestationImport,
  AttestationUpdate,
  Claim,
  ElectronicSignature,
  MapChange,
  MapEntry,
  NewAssessor,
  NewAttestation,
  NewSignatory,
  Page,
  Report,
} from './types'

export { VERSION_CONFLICT } from '../../api/errors'

// The attestation operations of the API through the typed client: attestations and their
// map, the affirmation's slots and signatures, seal, rescission, export and verification,
// and the assessors. The server sends null for a slot not pinned or not signed, which the
// generated types do not say; hence the casts to the types of ./types.

const byId = (id: string) => ({ params: { path: { id } } })
const asAttestation = (answer: Promise<unknown>) => answer as Promise<Attestation>

/** PICK_LIMIT is how many complete assessments the create dialog offers per search. */
export const PICK_LIMIT = 50

/** listAttestations lists the attestations matching the filters, newest first. */
export async function listAttestations(filters: AttestationFilters, cursor?: string): Promise<Page<Attestation>> {
  return (await unwrap(api.GET('/api/v1/attestations', { params: { query: attestationQuery(filters, cursor) } }))) as Page<Attestation>
}

/** fetchAttestation reads one attestation; 404 when unknown or its assessment is not visible. */
export function fetchAttestation(id: string): Promise<Attestation> {
  return asAttestation(unwrap(api.GET('/api/v1/attestations/{id}', byId(id))))
}

/** createAttestation starts a draft of a complete assessment (409 not_complete otherwise). */
export function createAttestation(input: NewAttestation): Promise<Attestation> {
  return asAttestation(unwrap(api.POST('/api/v1/attestations', { body: input })))
}

/** updateAttestation changes a draft (409 frozen once signing has begun). */
export function updateAttestation(id: string, update: AttestationUpdate): Promise<Attestation> {
  return asAttestation(unwrap(api.PATCH('/api/v1/attestations/{id}', { ...byId(id), body: update })))
}

/** deleteAttestation deletes a draft. */
export async function deleteAttestation(id: string, version: number): Promise<void> {
  await unwrap(api.DELETE('/api/v1/attestations/{id}', { params: { path: { id }, query: { version } } }))
}

/** listMap reads the attestation's map: every requirement with its scores and confidence. */
export async function listMap(id: string): Promise<MapEntry[]> {
  return (await unwrap(api.GET('/api/v1/attestations/{id}/requirements', byId(id)))).items ?? []
}

/** changeMap sets score overrides and confidence of a draft's requirements; answers the whole map. */
export async function changeMap(id: string, version: number, items: MapChange[]): Promise<MapEntry[]> {
  return (await unwrap(api.POST('/api/v1/attestations/{id}/requirements/bulk', { ...byId(id), body: { version, items } }))).items ?? []
}

/** addSignatory adds a slot to a draft's affirmation. */
export function addSignatory(id: string, input: NewSignatory): Promise<Attestation> {
  return asAttestation(unwrap(api.POST('/api/v1/attestations/{id}/signatories', { ...byId(id), body: input })))
}

/** removeSignatory removes a slot of a draft. */
export function removeSignatory(id: string, slotId: string): Promise<Attestation> {
  return asAttestation(unwrap(api.DELETE('/api/v1/attestations/{id}/signatories/{slotId}', { params: { path: { id, slotId } } })))
}

/** freezeAttestation fixes the statement (a draft becomes signing) and answers its JSON text, byte for byte. */
export async function freezeAttestation(id: string): Promise<string> {
  return (await unwrap(api.POST('/api/v1/attestations/{id}/freeze', { ...byId(id), parseAs: 'text' }))) as unknown as string
}

/** signElectronically signs a slot with a name (and optionally an image). */
export function signElectronically(id: string, slotId: string, electronic: ElectronicSignature): Promise<Attestation> {
  const body = { kind: 'electronic' as const, electronic }
  return asAttestation(unwrap(api.POST('/api/v1/attestations/{id}/signatories/{slotId}/sign', { params: { path: { id, slotId } }, body })))
}

/** signDigitally posts a JSF signer object made over the frozen statement (422 bad_signature when it does not verify). */
export function signDigitally(id: string, slotId: string, signer: JsfSigner): Promise<Attestation> {
  const body = { kind: 'digital' as const, digital: { signer: { ...signer } } }
  return asAttestation(unwrap(api.POST('/api/v1/attestations/{id}/signatories/{slotId}/sign', { params: { path: { id, slotId } }, body })))
}

/**
 * signWithHeldKey has the server sign a slot with a key it holds for the signed-in user
 * (`heldKeyId`), the user's password given again. A wrong password rejects with 400
 * (details code `incorrect`, counted as a failed sign-in), a locked account with 429, a
 * revoked key with 409 (`revoked`).
 */
export function signWithHeldKey(id: string, slotId: string, heldKeyId: string, password: string): Promise<Attestation> {
  const body = { kind: 'digital' as const, digital: { heldKeyId, password } }
  return asAttestation(unwrap(api.POST('/api/v1/attestations/{id}/signatories/{slotId}/sign', { params: { path: { id, slotId } }, body })))
}

/** sealAttestation has the platform seal the document (409 unsigned_slots naming the slots). */
export function sealAttestation(id: string): Promise<Attestation> {
  return asAttestation(unwrap(api.POST('/api/v1/attestations/{id}/seal', byId(id))))
}

/** rescindAttestation withdraws a sealed attestation with a reason. */
export function rescindAttestation(id: string, reason: string): Promise<Attestation> {
  return asAttestation(unwrap(api.POST('/api/v1/attestations/{id}/rescind', { ...byId(id), body: { reason } })))
}

/** ExportedDocument is a downloaded document and the name the server gave it. */
export interface ExportedDocument {
  blob: Blob
  filename: string
}

/** filenameFrom reads the file name of a Content-Disposition header (RFC 6266, filename* first). */
export function filenameFrom(header: string | null, fallback: string): string {
  if (!header) return fallback
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header)
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim())
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(header)
  return plain?.[1]?.trim() || fallback
}

/** exportAttestation downloads the stored CycloneDX document with the server's file name. */
export async function exportAttestation(id: string): Promise<ExportedDocument> {
  let result: { data?: unknown; error?: unknown; response: Response }
  try {
    result = await api.GET('/api/v1/attestations/{id}/export', { ...byId(id), parseAs: 'blob' })
  } catch (cause) {
    throw networkError(cause)
  }
  if (!result.response.ok) throw toApiError(result.response, result.error)
  const filename = filenameFrom(result.response.headers.get('Content-Disposition'), `${id}.cdx.json`)
  return { blob: result.data as Blob, filename }
}

/** verifyAttestation checks the stored document's signatures as a receiver would. */
export async function verifyAttestation(id: string): Promise<Report> {
  return unwrap(api.POST('/api/v1/attestations/{id}/verify', byId(id)))
}

/** verifyDocument checks an uploaded document (part `file`) with the platform's keys. */
export async function verifyDocument(file: Blob, name: string): Promise<Report> {
  const form = new FormData()
  form.append('file', file, name)
  return unwrap(api.POST('/api/v1/attestations/verify', { body: form as unknown as { file: string } }))
}

/** listClaims reads every claim of the attested assessment, page after page: the choice of claims saves them all. */
export function listClaims(assessmentId: string): Promise<Claim[]> {
  return listAllClaims(assessmentId)
}

/** searchCompleteAssessments lists complete assessments whose title matches `q`, for the create dialog. */
export async function searchCompleteAssessments(q: string): Promise<Assessment[]> {
  const text = q.trim()
  const query = { state: 'complete' as const, limit: PICK_LIMIT, ...(text ? { q: text } : {}) }
  return (await unwrap(api.GET('/api/v1/assessments', { params: { query } }))).items ?? []
}

/** listAssessors reads every assessor, by name. */
export async function listAssessors(): Promise<Assessor[]> {
  return (await unwrap(api.GET('/api/v1/assessors'))).items ?? []
}

/** createAssessor records an assessor (409 already_exists for a name in any letter case). */
export function createAssessor(input: NewAssessor): Promise<Assessor> {
  return unwrap(api.POST('/api/v1/assessors', { body: input }))
}

/** updateAssessor changes an assessor. */
export function updateAssessor(id: string, update: AssessorUpdate): Promise<Assessor> {
  return unwrap(api.PATCH('/api/v1/assessors/{id}', { ...byId(id), body: update }))
}

/** deleteAssessor deletes an assessor (409 in_use while an attestation names it). */
export async function deleteAssessor(id: string, version: number): Promise<void> {
  await unwrap(api.DELETE('/api/v1/assessors/{id}', { params: { path: { id }, query: { version } } }))
}

/** ImportRequest is one document to import: a file or a URL, with the issuer's keys (a JWKS, as text) to trust. */
export interface ImportRequest {
  file?: Blob
  fileName?: string
  url?: string
  jwks?: string
  dryRun: boolean
}

/** importAttestation imports (or, on a dry run, checks) an attestation document made elsewhere. */
export async function importAttestation(request: ImportRequest): Promise<AttestationImport> {
  const query = { dryRun: request.dryRun }
  const jwks = request.jwks?.trim()
  if (request.url !== undefined) {
    const body = { url: request.url.trim(), ...(jwks ? { jwks: JSON.parse(jwks) as Record<string, unknown> } : {}) }
    return unwrap(api.POST('/api/v1/attestation-imports/url', { params: { query }, body }))
  }
  const form = new FormData()
  if (jwks) form.append('jwks', jwks)
  if (request.file) form.append('file', request.file, request.fileName ?? 'attestation.cdx.json')
  return unwrap(api.POST('/api/v1/attestation-imports', { params: { query }, body: form as unknown as { file: string } }))
}

/** listAttestationImports lists the imported documents, newest first. */
export async function listAttestationImports(_filters: Record<string, never>, cursor?: string): Promise<Page<AttestationImport>> {
  return unwrap(api.GET('/api/v1/attestation-imports', { params: { query: cursor ? { cursor } : {} } })) as Promise<Page<AttestationImport>>
}

/** fetchAttestationImport reads one import's report. */
export function fetchAttestationImport(id: string): Promise<AttestationImport> {
  return unwrap(api.GET('/api/v1/attestation-imports/{id}', byId(id)))
}

/** importDocumentHref is where an imported document is downloaded as it came. */
export function importDocumentHref(id: string): string {
  return `/api/v1/attestation-imports/${encodeURIComponent(id)}/document`
}
