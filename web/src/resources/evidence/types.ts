import type { components } from '../../api/schema'
import type { AssertSame } from '../catalogue/api'

// Types of the evidence API (issue #13, contract sections B and C), from the generated
// schema (which marks the references the server may send as null).

type Schemas = components['schemas']

/** UserRef names a user as records show them. */
export type UserRef = Schemas['UserRef']

/** TagRef is a tag on a record. */
export type TagRef = Schemas['TagRef']

/** EVIDENCE_STATES are the states of evidence in its review, in lifecycle order. */
export const EVIDENCE_STATES = ['in_progress', 'in_review', 'claimed', 'expired'] as const

/** EvidenceState is one of EVIDENCE_STATES. */
export type EvidenceState = (typeof EVIDENCE_STATES)[number]

/** EVIDENCE_STATES_COMPLETE proves that EVIDENCE_STATES lists exactly the generated enum. */
export const EVIDENCE_STATES_COMPLETE: AssertSame<EvidenceState, Schemas['Evidence']['state']> = true

/** LOCK_REASONS are why evidence refuses changes (409 conflict, details code). */
export const LOCK_REASONS = ['claimed', 'linked_to_claim', 'assessment_terminal', 'affirmation_sealed'] as const

/** LockReason is one of LOCK_REASONS. */
export type LockReason = (typeof LOCK_REASONS)[number]

/** LOCK_REASONS_COMPLETE proves that LOCK_REASONS lists exactly the generated enum (without ''). */
export const LOCK_REASONS_COMPLETE: AssertSame<LockReason | '', NonNullable<Schemas['Evidence']['locked']>> = true

/**
 * Evidence is a descriptor of something that shows a requirement is met, with its files.
 * `reviewer` is null until the evidence is submitted.
 * collectedOn, validFrom and validUntil are YYYY-MM-DD; validUntil is the last valid day.
 * `locked` says why the evidence refuses changes, if it does.
 */
export type Evidence = Schemas['Evidence']

/** NewEvidence creates evidence (POST /evidence); requirementIds (ar_…) are linked at once. */
export type NewEvidence = Schemas['NewEvidence']

/** EvidenceUpdate changes evidence (PATCH /evidence/{id}); absent fields stay, an empty date clears it. */
export type EvidenceUpdate = Schemas['EvidenceUpdate']

/** EvidenceNote is a note on evidence; a rejection's note has kind "rejection". The author is null once their account is gone. */
export type EvidenceNote = Schemas['EvidenceNote']

/** EvidenceLink is an assessment requirement the evidence is linked to. */
export type EvidenceLink = Schemas['EvidenceLink']

/** ClaimRelation is how a claim cites evidence. */
export type ClaimRelation = Schemas['EvidenceClaim']['relation']

/** EvidenceClaim is a claim citing the evidence. */
export type EvidenceClaim = Schemas['EvidenceClaim']

/**
 * Attachment is a file of a piece of evidence; sha256 is checked on every download and
 * contentType is detected from the bytes by the server. uploadedBy is null once the
 * uploader's account is gone.
 */
export type Attachment = Schemas['Attachment']

/** Page is one page of a server list. */
export interface Page<T> {
  items: T[] | null
  nextCursor?: string
  hasMore: boolean
}

/** Whole is a list the server answers at once. */
export interface Whole<T> {
  items: T[] | null
}
