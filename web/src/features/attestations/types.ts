import type { components } from '../../api/schema'
import type { AssertSame } from '../../resources/catalogue/api'

// The attestation types as the API answers them (src/api/schema.d.ts).

type Schemas = components['schemas']

/** ATTESTATION_STATES lists an attestation's lifecycle states in order. */
export const ATTESTATION_STATES = ['draft', 'signing', 'sealed', 'rescinded', 'imported'] as const

/** AttestationState is where an attestation stands. */
export type AttestationState = (typeof ATTESTATION_STATES)[number]

/** ATTESTATION_STATES_COMPLETE proves that ATTESTATION_STATES lists exactly the generated enum. */
export const ATTESTATION_STATES_COMPLETE: AssertSame<Schemas['Attestation']['state'], AttestationState> = true

/** UserRef names a user. */
export type UserRef = Schemas['UserRef']

/** Signatory is a slot of the affirmation; `user` and `signedBy` are null when not pinned or not signed. */
export type Signatory = Schemas['Signatory']

/** Attestation is a signed statement about a complete assessment. */
export type Attestation = Omit<Schemas['Attestation'], 'signatories'> & { signatories: Signatory[] | null }

/** Assessor is an organisation that attests (CycloneDX declarations.assessors). */
export type Assessor = Schemas['Assessor']

/** NewAssessor records an assessor. */
export type NewAssessor = Schemas['NewAssessor']

/** AssessorUpdate changes an assessor; `version` is the one last read. */
export type AssessorUpdate = Schemas['AssessorUpdate']

/** NewAttestation starts a draft of a complete assessment. */
export type NewAttestation = Schemas['NewAttestation']

/** AttestationUpdate changes a draft; absent fields stay. */
export type AttestationUpdate = Schemas['AttestationUpdate']

/** MapEntry is one requirement of the attestation's map. */
export type MapEntry = Schemas['AttestationRequirement']

/** MapChange sets a requirement's score override and confidence. */
export type MapChange = Schemas['AttestationRequirementChange']

/** NewSignatory adds a slot. */
export type NewSignatory = Schemas['NewSignatory']

/** ElectronicSignature is the body of an electronic signature. */
export type ElectronicSignature = Schemas['ElectronicSignature']

/** Report is the verdict on a document's signatures. */
export type Report = Schemas['Report']

/** Check is the verdict on one signature. */
export type Check = Schemas['Check']

/** Claim is a claim of the assessment. */
export type Claim = Schemas['Claim']

/** Assessment is an assessment as the create dialog lists it. */
export type Assessment = Schemas['Assessment']

/** Page is one page of a server list. */
export interface Page<T> {
  items: T[] | null
  nextCursor?: string
  hasMore: boolean
}

/** isFrozen reports whether the attestation's statement can no longer change. */
export function isFrozen(state: AttestationState): boolean {
  return state !== 'draft'
}

/** hasDocument reports whether a document is stored (frozen or sealed) to export and verify. */
export function hasDocument(attestation: Pick<Attestation, 'state' | 'frozenAt'>): boolean {
  return attestation.state !== 'draft' || attestation.frozenAt !== null
}

/** AttestationImport is an imported document's report (or a dry run's: what importing it would do). */
export type AttestationImport = Schemas['AttestationImport']

/** ImportSignatures is the verdict on an imported document's signatures. */
export type ImportSignatures = Schemas['ImportSignatures']

/** SignatureVerdict is valid, untrusted, invalid or absent. */
export type SignatureVerdict = ImportSignatures['state']

/** ImportCounts counts records of each kind an import created or linked. */
export type ImportCounts = Schemas['ImportCounts']
