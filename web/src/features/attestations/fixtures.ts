import type { Attestation, MapEntry, Report, Signatory } from './types'

// Records as the attestation API answers them, for tests.

/** ASSESSOR_USER and SIGNER are the people of the fixtures. */
export const ASSESSOR_USER = { id: 'u_ann', username: 'ann', displayName: 'Ann Assessor' }
export const SIGNER = { id: 'u_bea', username: 'bea', displayName: 'Bea Signer' }

/** aSlot is an unsigned open slot, with `overrides`. */
export function aSlot(overrides: Partial<Signatory> = {}): Signatory {
  return {
    id: 'sg_1',
    title: 'Lead assessor',
    organization: 'Acme Assurance',
    user: null,
    kind: '',
    signedBy: null,
    signedAt: null,
    hasImage: false,
    ...overrides,
  }
}

/** anAttestation is a draft of a complete assessment, with `overrides`. */
export function anAttestation(overrides: Partial<Attestation> = {}): Attestation {
  return {
    id: 'at_1',
    assessmentId: 'as_1',
    assessmentTitle: 'Payments review',
    entityId: 'en_1',
    entityName: 'Payments service',
    summary: 'Payments at ASVS L1',
    statement: 'We affirm that the payments service meets the requirements as mapped.',
    state: 'draft',
    assessors: [],
    claimIds: [],
    score: 75,
    signatories: [aSlot()],
    frozenAt: null,
    sealedAt: null,
    rescindedAt: null,
    createdBy: ASSESSOR_USER,
    version: 4,
    createdAt: '2026-03-01T09:00:00Z',
    updatedAt: '2026-03-01T09:00:00Z',
    ...overrides,
  }
}

/** aMapEntry is a requirement of the map answered yes, with `overrides`. */
export function aMapEntry(overrides: Partial<MapEntry> = {}): MapEntry {
  return {
    id: 'ar_1',
    identifier: 'V1.1.1',
    name: 'Encode output',
    description: 'Verify that output encoding is applied for the context it is sent to.',
    standardId: 'st_1',
    result: 'yes',
    rationale: 'Checked.',
    derivedScore: 1,
    scoreOverride: null,
    score: 1,
    confidence: null,
    confidenceRationale: '',
    claimIds: ['cl_1'],
    counterClaimIds: [],
    ...overrides,
  }
}

/** aReport is the report on a sealed document whose claim signature broke. */
export function aReport(overrides: Partial<Report> = {}): Report {
  return {
    ok: false,
    sealed: true,
    serialNumber: 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79',
    attestationId: 'at_1',
    checks: [
      { object: 'the document (seal)', pointer: '', signer: 'platform', algorithm: 'Ed25519', thumbprint: 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k', status: 'valid' },
      { object: 'claim cl_9', pointer: '/declarations/claims/0', signer: 'platform', algorithm: 'Ed25519', thumbprint: 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k', status: 'invalid', reason: 'signature does not verify' },
      { object: 'signatory Bea Signer', pointer: '/declarations', signer: 'signatory', algorithm: 'ES256', thumbprint: 'abc', status: 'untrusted' },
    ],
    problems: [],
    expired: false,
    validUntil: '2099-12-31',
    ...overrides,
  }
}
