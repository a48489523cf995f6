// Types of the claims API (issue #13, contract section D), mirroring pkg/assess/claim.go.
// They stand in for the generated schema until the claim operations are in the OpenAPI
// document.

/** EvidenceState is where a piece of evidence is in its review (as the evidence feature knows it). */
export type EvidenceState = 'in_progress' | 'in_review' | 'claimed' | 'expired'

/** ClaimReference is an external reference of a claim (a CycloneDX externalReference). */
export interface ClaimReference {
  type: string
  url: string
  comment?: string
}

/** EvidenceOption is a piece of evidence as the claim editor offers it. */
export interface EvidenceOption {
  id: string
  name: string
  state: EvidenceState
}

/** ClaimEvidence is a piece of evidence as a claim cites it. */
export interface ClaimEvidence {
  id: string
  name: string
  state: EvidenceState
}

/** Claim is an assertion about requirements of an assessment (CycloneDX CDXA). */
export interface Claim {
  id: string
  assessmentId: string
  name: string
  bomRef?: string
  /** target is free text, or the entity's name when targetEntityId is set and it was blank. */
  target: string
  targetEntityId?: string
  targetEntityName?: string
  predicate: string
  reasoning: string
  isCounterClaim: boolean
  countersClaimId?: string
  evidence: ClaimEvidence[] | null
  counterEvidence: ClaimEvidence[] | null
  mitigationStrategies: ClaimEvidence[] | null
  requirementIds: string[] | null
  externalReferences: ClaimReference[] | null
  createdBy?: string
  version: number
  createdAt: string
  updatedAt: string
}

/** NewClaim creates a claim (POST /assessments/{id}/claims). */
export interface NewClaim {
  name: string
  target?: string
  targetEntityId?: string
  predicate: string
  reasoning?: string
  isCounterClaim?: boolean
  countersClaimId?: string
  evidenceIds?: string[]
  counterEvidenceIds?: string[]
  mitigationEvidenceIds?: string[]
  requirementIds?: string[]
  externalReferences?: ClaimReference[]
}

/** ClaimUpdate changes a claim (PATCH /claims/{id}); arrays given replace the old ones. */
export type ClaimUpdate = Partial<NewClaim> & { version: number }

/** RequirementOption is an assessment requirement as the claim editor offers it. */
export interface RequirementOption {
  id: string
  identifier: string
  name: string
}
