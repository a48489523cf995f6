import type { Evidence, EvidenceUpdate, NewEvidence } from './types'

// The evidence dialog's draft and what it sends: the whole input on create, only the
// changed fields (with the version read) on edit.

/** EVIDENCE_NAME_MAX_LENGTH bounds a name. */
export const EVIDENCE_NAME_MAX_LENGTH = 300
/** EVIDENCE_DESCRIPTION_MAX_LENGTH bounds a description. */
export const EVIDENCE_DESCRIPTION_MAX_LENGTH = 10000
/** EVIDENCE_CLASSIFICATION_MAX_LENGTH bounds a classification. */
export const EVIDENCE_CLASSIFICATION_MAX_LENGTH = 100

/** EVIDENCE_FIELDS are the dialog's fields, named as the API's JSON names them. */
export const EVIDENCE_FIELDS = [
  'name',
  'description',
  'classification',
  'collectedOn',
  'validFrom',
  'validUntil',
  'isCounterEvidence',
  'tagIds',
  'requirementIds',
] as const

/** EvidenceField is one of EVIDENCE_FIELDS. */
export type EvidenceField = (typeof EVIDENCE_FIELDS)[number]

/** EvidenceDraft is what the dialog edits; dates are YYYY-MM-DD or ''. */
export interface EvidenceDraft {
  name: string
  description: string
  classification: string
  collectedOn: string
  validFrom: string
  validUntil: string
  isCounterEvidence: boolean
  tagIds: string[]
}

/** evidenceDraft fills the dialog from evidence, or empty for new evidence. */
export function evidenceDraft(evidence?: Evidence | null): EvidenceDraft {
  return {
    name: evidence?.name ?? '',
    description: evidence?.description ?? '',
    classification: evidence?.classification ?? '',
    collectedOn: evidence?.collectedOn ?? '',
    validFrom: evidence?.validFrom ?? '',
    validUntil: evidence?.validUntil ?? '',
    isCounterEvidence: evidence?.isCounterEvidence ?? false,
    tagIds: (evidence?.tags ?? []).map((tag) => tag.id),
  }
}

/** DraftProblem names what is wrong with a draft. */
export type DraftProblem = 'nameRequired' | 'nameLength' | 'validityOrder'

/** nameProblem checks the name. */
export function nameProblem(draft: Pick<EvidenceDraft, 'name'>): DraftProblem | null {
  const name = draft.name.trim()
  if (name === '') return 'nameRequired'
  return [...name].length > EVIDENCE_NAME_MAX_LENGTH ? 'nameLength' : null
}

/** validityProblem reports a valid-until date before the valid-from date (ISO days compare as text). */
export function validityProblem(draft: Pick<EvidenceDraft, 'validFrom' | 'validUntil'>): DraftProblem | null {
  return draft.validFrom !== '' && draft.validUntil !== '' && draft.validUntil < draft.validFrom ? 'validityOrder' : null
}

/** newEvidence is the create request for a draft, linked to `requirementIds` when given. */
export function newEvidence(draft: EvidenceDraft, requirementIds: string[] = []): NewEvidence {
  const input: NewEvidence = { name: draft.name.trim() }
  if (draft.description.trim() !== '') input.description = draft.description.trim()
  if (draft.classification.trim() !== '') input.classification = draft.classification.trim()
  if (draft.collectedOn !== '') input.collectedOn = draft.collectedOn
  if (draft.validFrom !== '') input.validFrom = draft.validFrom
  if (draft.validUntil !== '') input.validUntil = draft.validUntil
  if (draft.isCounterEvidence) input.isCounterEvidence = true
  if (draft.tagIds.length > 0) input.tagIds = [...draft.tagIds]
  if (requirementIds.length > 0) input.requirementIds = [...requirementIds]
  return input
}

/**
 * evidenceUpdate is the change from `evidence` to the draft: the changed fields only,
 * with the version read (a cleared date is sent as ''), or null when nothing changed.
 */
export function evidenceUpdate(evidence: Evidence, draft: EvidenceDraft): EvidenceUpdate | null {
  const before = evidenceDraft(evidence)
  const update: EvidenceUpdate = { version: evidence.version }
  let changed = false
  const text = ['name', 'description', 'classification'] as const
  for (const key of text) {
    const value = draft[key].trim()
    if (value !== before[key]) {
      update[key] = value
      changed = true
    }
  }
  const days = ['collectedOn', 'validFrom', 'validUntil'] as const
  for (const key of days) {
    if (draft[key] !== before[key]) {
      update[key] = draft[key]
      changed = true
    }
  }
  if (draft.isCounterEvidence !== before.isCounterEvidence) {
    update.isCounterEvidence = draft.isCounterEvidence
    changed = true
  }
  const sameTags = draft.tagIds.length === before.tagIds.length && draft.tagIds.every((id) => before.tagIds.includes(id))
  if (!sameTags) {
    update.tagIds = [...draft.tagIds]
    changed = true
  }
  return changed ? update : null
}
