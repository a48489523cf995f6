import { api, unwrap } from '../../api/client'
import { fetchEveryPage, type CursorPage } from '../../app/cursorList'
import type { Claim, ClaimUpdate, EvidenceOption, NewClaim, RequirementOption } from './types'

export type { Claim, ClaimUpdate, NewClaim }

// The claims API (contract section D) through the typed client, and the look-ups the
// claim editor needs: evidence to cite, and an assessment's requirements.

/** EVIDENCE_PICK_LIMIT is how many pieces of evidence each search of the editor offers. */
export const EVIDENCE_PICK_LIMIT = 20

const byId = (id: string) => ({ params: { path: { id } } })

/** CLAIM_PAGE_SIZE is how many claims a page of a list to read shows. */
export const CLAIM_PAGE_SIZE = 50

/** CLAIM_FETCH_ALL_PAGE_SIZE is the page size for reading every claim: the server's maximum. */
export const CLAIM_FETCH_ALL_PAGE_SIZE = 200

/**
 * listClaims reads a page of an assessment's claims, oldest first, after `cursor`;
 * `requirement` (ar_…) narrows them.
 */
export function listClaims(
  assessmentId: string,
  cursor?: string,
  options: { requirement?: string; limit?: number } = {},
): Promise<CursorPage<Claim>> {
  const query = { limit: options.limit ?? CLAIM_PAGE_SIZE, ...(cursor ? { cursor } : {}), ...(options.requirement ? { requirement: options.requirement } : {}) }
  return unwrap(api.GET('/api/v1/assessments/{id}/claims', { params: { path: { id: assessmentId }, query } }))
}

/**
 * listAllClaims reads every claim of an assessment, oldest first, page after page, for
 * a view that needs them all (the claim editor's choice of the claim countered, an
 * attestation's choice of claims).
 */
export function listAllClaims(assessmentId: string, requirement?: string): Promise<Claim[]> {
  return fetchEveryPage((cursor) => listClaims(assessmentId, cursor, { requirement, limit: CLAIM_FETCH_ALL_PAGE_SIZE }))
}

/** fetchClaim reads one claim; 404 for one unknown or not visible. */
export function fetchClaim(id: string): Promise<Claim> {
  return unwrap(api.GET('/api/v1/claims/{id}', byId(id)))
}

/** createClaim adds a claim to an assessment (201). */
export function createClaim(assessmentId: string, input: NewClaim): Promise<Claim> {
  return unwrap(api.POST('/api/v1/assessments/{id}/claims', { ...byId(assessmentId), body: input }))
}

/** updateClaim changes a claim with the version last read; arrays given replace the old ones. */
export function updateClaim(id: string, update: ClaimUpdate): Promise<Claim> {
  return unwrap(api.PATCH('/api/v1/claims/{id}', { ...byId(id), body: update }))
}

/** deleteClaim removes a claim. */
export async function deleteClaim(id: string, version: number): Promise<void> {
  await unwrap(api.DELETE('/api/v1/claims/{id}', { params: { path: { id }, query: { version } } }))
}

/** fetchRequirementOptions reads an assessment's requirements for the editor's picker. */
export async function fetchRequirementOptions(assessmentId: string): Promise<RequirementOption[]> {
  const list = await unwrap(
    api.GET('/api/v1/assessments/{id}/requirements', { params: { path: { id: assessmentId } } }),
  )
  const items = list.items ?? []
  return items.map(({ id, identifier, name }) => ({ id, identifier, name }))
}

async function findEvidence(q: string, scope: { assessment?: string; author?: string }): Promise<EvidenceOption[]> {
  const text = q.trim()
  const query = { ...scope, ...(text ? { q: text } : {}), sort: 'name' as const, limit: EVIDENCE_PICK_LIMIT }
  const page = await unwrap(api.GET('/api/v1/evidence', { params: { query } }))
  return (page.items ?? []).map(({ id, name, state }) => ({ id, name, state }))
}

/**
 * searchClaimEvidence finds evidence a claim of the assessment may cite: the
 * assessment's and the viewer's own, matching `q`, each once, by name.
 */
export async function searchClaimEvidence(assessmentId: string, q: string): Promise<EvidenceOption[]> {
  const [ofAssessment, mine] = await Promise.all([
    findEvidence(q, { assessment: assessmentId }),
    findEvidence(q, { author: 'me' }).catch(() => [] as EvidenceOption[]),
  ])
  const seen = new Map<string, EvidenceOption>()
  for (const item of [...ofAssessment, ...mine]) if (!seen.has(item.id)) seen.set(item.id, item)
  return [...seen.values()].sort((a, b) => a.name.localeCompare(b.name))
}
