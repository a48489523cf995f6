import type { Assessment, AssessmentRequirement, UserRef } from './types'

// Records for the tests of this feature.

/** ada and bob are team members. */
export const ada: UserRef = { id: 'us_ada', username: 'ada', displayName: 'Ada Lovelace' }
export const bob: UserRef = { id: 'us_bob', username: 'bob.b', displayName: 'Bob Builder' }

/** anAssessment is an assessment in progress against ASVS level 1. */
export function anAssessment(overrides: Partial<Assessment> = {}): Assessment {
  return {
    id: 'as_1',
    title: 'Web shop review',
    description: 'Yearly review',
    state: 'in_progress',
    allowedStates: ['on_hold', 'complete', 'cancelled'],
    entityId: 'en_1',
    entityName: 'Web Shop',
    projectId: 'pr_1',
    projectName: 'Shop 2026',
    standards: [{ id: 'st_asvs', name: 'OWASP ASVS', standardVersion: '5.0.0', levelId: 'lv_1', levelName: 'L1', conformanceScore: null }],
    assessors: [ada],
    assessees: [bob],
    tags: [],
    dueDate: '2026-03-01',
    overdue: false,
    startedAt: '2026-01-10T10:00:00Z',
    conformanceScore: null,
    progress: { total: 3, answered: 1, yes: 1, partial: 0, no: 0, notApplicable: 0, withEvidence: 1 },
    completionEvidence: 'every_positive',
    version: 4,
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-10T10:00:00Z',
    ...overrides,
  }
}

/** aRequirement is an unanswered requirement in chapter V1, section V1.1 of ASVS. */
export function aRequirement(id: string, overrides: Partial<AssessmentRequirement> = {}): AssessmentRequirement {
  return {
    id,
    requirementId: `rq_${id}`,
    standardId: 'st_asvs',
    identifier: id.toUpperCase(),
    name: `Requirement ${id}`,
    description: '',
    ancestors: [
      { id: 'rq_v1', identifier: 'V1', name: 'Encoding' },
      { id: 'rq_v1_1', identifier: 'V1.1', name: 'Architecture' },
    ],
    result: null,
    rationale: '',
    evidenceCount: 0,
    claimCount: 0,
    version: 1,
    ...overrides,
  }
}
