// Types of the evidence API (issue #13, contract section B and C), mirroring
// pkg/assess/evidence.go. They stand in for the generated schema until the evidence
// operations are in the OpenAPI document; api.ts is the only place that talks to the
// server with them.

/** UserRef names a user as records show them. */
export interface UserRef {
  id: string
  username: string
  displayName: string
}

/** TagRef is a tag on a record. */
export interface TagRef {
  id: string
  name: string
  color: string
}

/** EVIDENCE_STATES are the states of evidence in its review, in lifecycle order. */
export const EVIDENCE_STATES = ['in_progress', 'in_review', 'claimed', 'expired'] as const

/** EvidenceState is one of EVIDENCE_STATES. */
export type EvidenceState = (typeof EVIDENCE_STATES)[number]

/** LOCK_REASONS are why evidence refuses changes (409 conflict, details code). */
export const LOCK_REASONS = ['claimed', 'linked_to_claim', 'assessment_terminal'] as const

/** LockReason is one of LOCK_REASONS. */
export type LockReason = (typeof LOCK_REASONS)[number]

/** Evidence is a descriptor of something that shows a requirement is met, with its files. */
export interface Evidence {
  id: string
  name: string
  description: string
  classification: string
  bomRef?: string
  isCounterEvidence: boolean
  state: EvidenceState
  author: UserRef
  reviewer: UserRef | null
  /** collectedOn, validFrom and validUntil are YYYY-MM-DD; validUntil is the last valid day. */
  collectedOn?: string
  validFrom?: string
  validUntil?: string
  submittedAt?: string
  reviewedAt?: string
  /** locked says why the evidence refuses changes, if it does ('' or absent when it does not). */
  locked?: LockReason | ''
  attachmentCount: number
  assessmentCount: number
  tags: TagRef[] | null
  version: number
  createdAt: string
  updatedAt: string
}

/** NewEvidence creates evidence (POST /evidence); requirementIds (ar_…) are linked at once. */
export interface NewEvidence {
  name: string
  description?: string
  classification?: string
  collectedOn?: string
  validFrom?: string
  validUntil?: string
  isCounterEvidence?: boolean
  tagIds?: string[]
  requirementIds?: string[]
}

/** EvidenceUpdate changes evidence (PATCH /evidence/{id}); absent fields stay as they are. */
export interface EvidenceUpdate {
  version: number
  name?: string
  description?: string
  classification?: string
  collectedOn?: string
  validFrom?: string
  validUntil?: string
  isCounterEvidence?: boolean
  tagIds?: string[]
}

/** EvidenceNote is a note on evidence; a rejection's note has kind "rejection". */
export interface EvidenceNote {
  id: string
  evidenceId: string
  author: UserRef | null
  kind: 'note' | 'rejection'
  content: string
  createdAt: string
}

/** EvidenceLink is an assessment requirement the evidence is linked to. */
export interface EvidenceLink {
  assessmentId: string
  assessmentTitle: string
  assessmentState: string
  assessmentRequirementId: string
  requirementIdentifier: string
  requirementName: string
}

/** ClaimRelation is how a claim cites evidence. */
export type ClaimRelation = 'evidence' | 'counter_evidence' | 'mitigation'

/** EvidenceClaim is a claim citing the evidence. */
export interface EvidenceClaim {
  id: string
  name: string
  assessmentId: string
  relation: ClaimRelation
}

/** Attachment is a file of a piece of evidence; sha256 is checked on every download. */
export interface Attachment {
  id: string
  evidenceId: string
  filename: string
  /** contentType is detected from the bytes by the server, not taken from the client. */
  contentType: string
  sizeBytes: number
  sha256: string
  provider: 'database' | 's3'
  uploadedBy: UserRef | null
  createdAt: string
}

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
