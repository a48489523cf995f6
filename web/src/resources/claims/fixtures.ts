import type { Claim } from './types'

// Claims as the API describes them, for tests.

/** aClaim is a claim on assessment as_1 with no evidence, requirements or references, changed as `overrides` say. */
export function aClaim(overrides: Partial<Claim> = {}): Claim {
  return {
    id: 'cl_1',
    assessmentId: 'as_1',
    name: 'Output is encoded',
    target: 'The checkout',
    predicate: 'encodes all output',
    reasoning: '',
    isCounterClaim: false,
    evidence: [],
    counterEvidence: [],
    mitigationStrategies: [],
    requirementIds: [],
    externalReferences: [],
    version: 1,
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
    ...overrides,
  }
}
