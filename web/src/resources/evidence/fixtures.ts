import type { Attachment, Evidence } from './types'

// Records as the evidence API answers them, for tests.

/** AUTHOR and REVIEWER are the people of the fixtures. */
export const AUTHOR = { id: 'u_author', username: 'ann', displayName: 'Ann Author' }
export const REVIEWER = { id: 'u_reviewer', username: 'rey', displayName: 'Rey Reviewer' }

/** evidence is a piece of evidence in progress by AUTHOR, with `overrides`. */
export function evidence(overrides: Partial<Evidence> = {}): Evidence {
  return {
    id: 'ev_1',
    name: 'Penetration test report',
    description: 'Yearly external test',
    classification: 'confidential',
    isCounterEvidence: false,
    state: 'in_progress',
    author: AUTHOR,
    reviewer: null,
    collectedOn: '2026-01-10',
    validFrom: '2026-01-10',
    validUntil: '2099-12-31',
    locked: '',
    attachmentCount: 0,
    assessmentCount: 0,
    tags: [],
    version: 3,
    createdAt: '2026-01-10T09:00:00Z',
    updatedAt: '2026-01-10T09:00:00Z',
    ...overrides,
  }
}

/** attachment is a file of ev_1, with `overrides`. */
export function attachment(overrides: Partial<Attachment> = {}): Attachment {
  return {
    id: 'af_1',
    evidenceId: 'ev_1',
    filename: 'report.pdf',
    contentType: 'application/pdf',
    sizeBytes: 2048,
    sha256: 'a'.repeat(64),
    provider: 'database',
    uploadedBy: AUTHOR,
    createdAt: '2026-01-10T10:00:00Z',
    ...overrides,
  }
}
