import { deletePath, getJSON, patchJSON, postJSON } from '../../app/pendingApi'
import type { Claim, ClaimUpdate, EvidenceOption, NewClaim, RequirementOption } from './types'

export type { Claim, ClaimUpdate, NewClaim }

// The claims API (contract section D) and the look-ups the claim editor needs.

interface Whole<T> {
  items: T[] | null
}

/** EVIDENCE_PICK_LIMIT is how many pieces of evidence each search of the editor offers. */
export const EVIDENCE_PICK_LIMIT = 20

const assessment = (id: string) => `/assessments/${encodeURIComponent(id)}`
const one = (id: string) => `/claims/${encodeURIComponent(id)}`

/** listClaims reads an assessment's claims, oldest first; `requirement` (ar_…) narrows them. */
export async function listClaims(assessmentId: string, requirement?: string): Promise<Claim[]> {
  return (await getJSON<Whole<Claim>>(`${assessment(assessmentId)}/claims`, { requirement })).items ?? []
}

/** fetchClaim reads one claim; 404 for one unknown or not visible. */
export function fetchClaim(id: string): Promise<Claim> {
  return getJSON(one(id))
}

/** createClaim adds a claim to an assessment (201). */
export function createClaim(assessmentId: string, input: NewClaim): Promise<Claim> {
  return postJSON(`${assessment(assessmentId)}/claims`, input)
}

/** updateClaim changes a claim with the version last read; arrays given replace the old ones. */
export function updateClaim(id: string, update: ClaimUpdate): Promise<Claim> {
  return patchJSON(one(id), update)
}

/** deleteClaim removes a claim. */
export function deleteClaim(id: string, version: number): Promise<void> {
  return deletePath(one(id), { version })
}

/** fetchRequirementOptions reads an assessment's requirements for the editor's picker. */
export async function fetchRequirementOptions(assessmentId: string): Promise<RequirementOption[]> {
  const items = (await getJSON<Whole<RequirementOption>>(`${assessment(assessmentId)}/requirements`)).items ?? []
  return items.map(({ id, identifier, name }) => ({ id, identifier, name }))
}

async function findEvidence(q: string, scope: Record<string, string>): Promise<EvidenceOption[]> {
  const page = await getJSON<Whole<EvidenceOption>>('/evidence', { ...scope, q: q.trim(), sort: 'name', limit: EVIDENCE_PICK_LIMIT })
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
