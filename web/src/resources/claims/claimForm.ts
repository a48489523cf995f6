import type { Claim, ClaimReference, ClaimUpdate, NewClaim } from './types'

// The claim editor's draft, its checks, and what it sends.

/**
 * REFERENCE_TYPES are the CycloneDX externalReference types a claim may cite (those of
 * CycloneDX 1.6, which 1.7 keeps).
 */
export const REFERENCE_TYPES = [
  'vcs', 'issue-tracker', 'website', 'advisories', 'bom', 'mailing-list', 'social', 'chat', 'documentation',
  'support', 'source-distribution', 'distribution', 'distribution-intake', 'license', 'build-meta',
  'build-system', 'release-notes', 'security-contact', 'model-card', 'log', 'configuration', 'evidence',
  'formulation', 'attestation', 'threat-model', 'adversary-model', 'risk-assessment', 'vulnerability-assertion',
  'exploitability-statement', 'pentest-report', 'static-analysis-report', 'dynamic-analysis-report',
  'runtime-analysis-report', 'component-analysis-report', 'maturity-report', 'certification-report',
  'codified-infrastructure', 'quality-metrics', 'poam', 'electronic-signature', 'digital-signature', 'rfc-9116',
  'other',
] as const

/** CLAIM_NAME_MAX_LENGTH bounds a claim's name. */
export const CLAIM_NAME_MAX_LENGTH = 300
/** CLAIM_TARGET_MAX_LENGTH, CLAIM_PREDICATE_MAX_LENGTH and CLAIM_REASONING_MAX_LENGTH bound those texts, as the server does. */
export const CLAIM_TARGET_MAX_LENGTH = 1000
export const CLAIM_PREDICATE_MAX_LENGTH = 10000
export const CLAIM_REASONING_MAX_LENGTH = 20000
/** MAX_REFERENCES bounds a claim's external references. */
export const MAX_REFERENCES = 50
/** URL_MAX_LENGTH and COMMENT_MAX_LENGTH bound a reference, as the server does. */
export const URL_MAX_LENGTH = 2048
export const COMMENT_MAX_LENGTH = 1000

/** CLAIM_FIELDS are the editor's fields, named as the API's JSON names them. */
export const CLAIM_FIELDS = [
  'name',
  'target',
  'targetEntityId',
  'predicate',
  'reasoning',
  'isCounterClaim',
  'countersClaimId',
  'evidenceIds',
  'counterEvidenceIds',
  'mitigationEvidenceIds',
  'requirementIds',
  'externalReferences',
] as const

/** ClaimField is one of CLAIM_FIELDS. */
export type ClaimField = (typeof CLAIM_FIELDS)[number]

/** TargetKind says whether the target is an entity of the catalogue or free text. */
export type TargetKind = 'entity' | 'text'

/** ReferenceRow is one external reference being edited; `key` keeps rows apart in lists. */
export interface ReferenceRow {
  key: number
  type: string
  url: string
  comment: string
}

/** ClaimDraft is what the editor edits. */
export interface ClaimDraft {
  name: string
  targetKind: TargetKind
  target: string
  targetEntityId: string
  predicate: string
  reasoning: string
  isCounterClaim: boolean
  countersClaimId: string
  evidenceIds: string[]
  counterEvidenceIds: string[]
  mitigationEvidenceIds: string[]
  requirementIds: string[]
  references: ReferenceRow[]
}

let rowKey = 0

/** referenceRow makes an editor row, empty or from a reference. */
export function referenceRow(reference?: ClaimReference): ReferenceRow {
  return { key: ++rowKey, type: reference?.type ?? '', url: reference?.url ?? '', comment: reference?.comment ?? '' }
}

const ids = (list: { id: string }[] | null | undefined) => (list ?? []).map((item) => item.id)

/** claimDraft fills the editor from a claim, or empty (linked to `requirementIds`) for a new one. */
export function claimDraft(claim?: Claim | null, requirementIds: string[] = []): ClaimDraft {
  const byEntity = Boolean(claim?.targetEntityId)
  return {
    name: claim?.name ?? '',
    targetKind: claim ? (byEntity ? 'entity' : 'text') : 'entity',
    target: byEntity ? '' : (claim?.target ?? ''),
    targetEntityId: claim?.targetEntityId ?? '',
    predicate: claim?.predicate ?? '',
    reasoning: claim?.reasoning ?? '',
    isCounterClaim: claim?.isCounterClaim ?? false,
    countersClaimId: claim?.countersClaimId ?? '',
    evidenceIds: ids(claim?.evidence),
    counterEvidenceIds: ids(claim?.counterEvidence),
    mitigationEvidenceIds: ids(claim?.mitigationStrategies),
    requirementIds: claim ? [...(claim.requirementIds ?? [])] : [...requirementIds],
    references: (claim?.externalReferences ?? []).map((reference) => referenceRow(reference)),
  }
}

/** ReferenceProblem names what is wrong with a reference row. */
export type ReferenceProblem = 'typeRequired' | 'typeUnknown' | 'urlRequired' | 'urlInvalid' | 'urlLength' | 'commentLength'

/** isWebURL accepts absolute http(s) URLs with a host. */
export function isWebURL(text: string): boolean {
  try {
    const url = new URL(text)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}

/** referenceProblems checks one row: its type and its URL (a blank row is caught too). */
export function referenceProblems(row: ReferenceRow): { type?: ReferenceProblem; url?: ReferenceProblem; comment?: ReferenceProblem } {
  const problems: { type?: ReferenceProblem; url?: ReferenceProblem; comment?: ReferenceProblem } = {}
  if (row.type === '') problems.type = 'typeRequired'
  else if (!(REFERENCE_TYPES as readonly string[]).includes(row.type)) problems.type = 'typeUnknown'
  const url = row.url.trim()
  if (url === '') problems.url = 'urlRequired'
  else if (url.length > URL_MAX_LENGTH) problems.url = 'urlLength'
  else if (!isWebURL(url)) problems.url = 'urlInvalid'
  if (row.comment.trim().length > COMMENT_MAX_LENGTH) problems.comment = 'commentLength'
  return problems
}

/** DraftProblem names what is wrong with the draft outside the reference rows. */
export type DraftProblem = 'nameRequired' | 'nameLength' | 'targetRequired' | 'predicateRequired' | 'countersSelf'

/** draftProblems checks the draft's fields (the reference rows have referenceProblems). */
export function draftProblems(draft: ClaimDraft, claimId = ''): Partial<Record<'name' | 'target' | 'predicate' | 'countersClaimId', DraftProblem>> {
  const problems: Partial<Record<'name' | 'target' | 'predicate' | 'countersClaimId', DraftProblem>> = {}
  const name = draft.name.trim()
  if (name === '') problems.name = 'nameRequired'
  else if ([...name].length > CLAIM_NAME_MAX_LENGTH) problems.name = 'nameLength'
  const target = draft.targetKind === 'entity' ? draft.targetEntityId : draft.target.trim()
  if (target === '') problems.target = 'targetRequired'
  if (draft.predicate.trim() === '') problems.predicate = 'predicateRequired'
  if (claimId !== '' && draft.countersClaimId === claimId) problems.countersClaimId = 'countersSelf'
  return problems
}

/** isValid reports a draft the server can take: no field problem and every reference row sound. */
export function isValid(draft: ClaimDraft, claimId = ''): boolean {
  return Object.keys(draftProblems(draft, claimId)).length === 0 && draft.references.every((row) => Object.keys(referenceProblems(row)).length === 0)
}

function references(draft: ClaimDraft): ClaimReference[] {
  return draft.references.map((row) => {
    const reference: ClaimReference = { type: row.type, url: row.url.trim() }
    if (row.comment.trim() !== '') reference.comment = row.comment.trim()
    return reference
  })
}

/** newClaim is the create request for a draft; the claim countered is sent only for a counter-claim. */
export function newClaim(draft: ClaimDraft): NewClaim {
  const input: NewClaim = { name: draft.name.trim(), predicate: draft.predicate.trim() }
  if (draft.targetKind === 'entity') input.targetEntityId = draft.targetEntityId
  else input.target = draft.target.trim()
  if (draft.reasoning.trim() !== '') input.reasoning = draft.reasoning.trim()
  if (draft.isCounterClaim) input.isCounterClaim = true
  if (draft.isCounterClaim && draft.countersClaimId !== '') input.countersClaimId = draft.countersClaimId
  if (draft.evidenceIds.length > 0) input.evidenceIds = [...draft.evidenceIds]
  if (draft.counterEvidenceIds.length > 0) input.counterEvidenceIds = [...draft.counterEvidenceIds]
  if (draft.mitigationEvidenceIds.length > 0) input.mitigationEvidenceIds = [...draft.mitigationEvidenceIds]
  if (draft.requirementIds.length > 0) input.requirementIds = [...draft.requirementIds]
  if (draft.references.length > 0) input.externalReferences = references(draft)
  return input
}

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((value, index) => value === b[index])

/**
 * claimUpdate is the change from `claim` to the draft: every scalar field as it now is
 * (the server takes them as given) and the lists that changed, with the version read.
 * A target switched to free text sends targetEntityId '' to clear the entity; one switched
 * to an entity clears the old free text.
 */
export function claimUpdate(claim: Claim, draft: ClaimDraft): ClaimUpdate {
  const before = claimDraft(claim)
  const full = newClaim(draft)
  const update: ClaimUpdate = {
    version: claim.version,
    name: full.name,
    predicate: full.predicate,
    reasoning: draft.reasoning.trim(),
    isCounterClaim: full.isCounterClaim ?? false,
    countersClaimId: full.countersClaimId ?? '',
  }
  if (draft.targetKind === 'entity') {
    update.targetEntityId = draft.targetEntityId
    if (before.targetKind === 'text') update.target = ''
  } else {
    update.target = draft.target.trim()
    update.targetEntityId = ''
  }
  const lists = ['evidenceIds', 'counterEvidenceIds', 'mitigationEvidenceIds', 'requirementIds'] as const
  for (const key of lists) if (!sameList(draft[key], before[key])) update[key] = [...draft[key]]
  const nextRefs = references(draft)
  if (JSON.stringify(nextRefs) !== JSON.stringify(references(before))) update.externalReferences = nextRefs
  return update
}

/**
 * referenceErrorIndex reads the row a server detail names, e.g.
 * "externalReferences[2].url" → { index: 2, field: 'url' }; null for other fields.
 */
export function referenceErrorIndex(field: string | undefined): { index: number; field: 'type' | 'url' | 'comment' | '' } | null {
  const match = /^(?:body\.)?externalReferences\[(\d+)\](?:\.(type|url|comment))?$/.exec(field ?? '')
  if (!match) return null
  return { index: Number(match[1]), field: (match[2] ?? '') as 'type' | 'url' | 'comment' | '' }
}
