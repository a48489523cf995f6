import type { components } from '../../api/schema'

// Types of the claims API (issue #13, contract section D), from the generated schema, and
// the shapes of the look-ups the claim editor makes.

type Schemas = components['schemas']

/** EvidenceState is where a piece of evidence is in its review. */
export type EvidenceState = Schemas['ClaimEvidence']['state']

/** ClaimReference is an external reference of a claim (a CycloneDX externalReference). */
export type ClaimReference = Schemas['ClaimReference']

/** ClaimEvidence is a piece of evidence as a claim cites it. */
export type ClaimEvidence = Schemas['ClaimEvidence']

/** Claim is an assertion about requirements of an assessment (CycloneDX CDXA). */
export type Claim = Schemas['Claim']

/** NewClaim creates a claim (POST /assessments/{id}/claims). */
export type NewClaim = Schemas['NewClaim']

/** ClaimUpdate changes a claim (PATCH /claims/{id}); arrays given replace the old ones. */
export type ClaimUpdate = Schemas['ClaimUpdate']

/** EvidenceOption is a piece of evidence as the claim editor offers it. */
export interface EvidenceOption {
  id: string
  name: string
  state: EvidenceState
}

/** RequirementOption is an assessment requirement as the claim editor offers it. */
export interface RequirementOption {
  id: string
  identifier: string
  name: string
}
