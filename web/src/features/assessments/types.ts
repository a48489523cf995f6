import type { components } from '../../api/schema'

// The assessment types as the API answers them (pkg/assess assessment.go, claim.go and
// evidence.go). Those the generated schema carries already (claims, work notes, the
// timeline) are its types; the others are declared here by hand, mirroring the Go types,
// until the assessment and result operations are in the schema.

type Schemas = components['schemas']

/** ASSESSMENT_STATES lists an assessment's lifecycle states, in their usual order. */
export const ASSESSMENT_STATES = ['new', 'pending', 'in_progress', 'on_hold', 'complete', 'archived', 'cancelled'] as const

/** AssessmentState is where an assessment is in its lifecycle. */
export type AssessmentState = (typeof ASSESSMENT_STATES)[number]

/** READ_ONLY_STATES are the states whose content (results, team, notes, claims, links) refuses changes. */
export const READ_ONLY_STATES: readonly AssessmentState[] = ['complete', 'archived', 'cancelled']

/** isReadOnly reports whether an assessment in `state` refuses changes to its content. */
export function isReadOnly(state: AssessmentState): boolean {
  return READ_ONLY_STATES.includes(state)
}

/** RESULTS lists the answers a requirement can get, in the order the UI offers them. */
export const RESULTS = ['yes', 'partial', 'no', 'not_applicable'] as const

/** Result is the answer recorded for one requirement. */
export type Result = (typeof RESULTS)[number]

/** UserRef names a user as records show them. */
export type UserRef = Schemas['UserRef']

/** TagRef is a tag on a record. */
export interface TagRef {
  id: string
  name: string
  color: string
}

/** AssessmentStandard is a standard the assessment is against, optionally narrowed to a level. */
export interface AssessmentStandard {
  id: string
  name: string
  standardVersion: string
  levelId?: string
  levelName?: string
  /** 0–100 once complete; null otherwise or when every answer is not applicable. */
  conformanceScore: number | null
}

/** AssessmentProgress counts the answers of an assessment's requirements. */
export interface AssessmentProgress {
  total: number
  answered: number
  yes: number
  partial: number
  no: number
  notApplicable: number
  withEvidence: number
}

/** Assessment is one entity assessed against one or more standards by a team. */
export interface Assessment {
  id: string
  title: string
  description: string
  state: AssessmentState
  /** The states this assessment may move to now. */
  allowedStates: AssessmentState[] | null
  entityId: string
  entityName: string
  projectId?: string
  projectName?: string
  standards: AssessmentStandard[] | null
  assessors: UserRef[] | null
  assessees: UserRef[] | null
  tags: TagRef[] | null
  /** YYYY-MM-DD */
  dueDate?: string
  overdue: boolean
  startedAt?: string
  endedAt?: string
  conformanceScore: number | null
  progress: AssessmentProgress
  createdBy?: string
  version: number
  createdAt: string
  updatedAt: string
}

/** AssessmentStandardInput names a standard for a new assessment and, optionally, one of its levels. */
export interface AssessmentStandardInput {
  standardId: string
  levelId?: string
}

/** NewAssessment is what the create dialog posts. */
export interface NewAssessment {
  title: string
  description?: string
  entityId: string
  projectId?: string
  standards: AssessmentStandardInput[]
  assessorIds?: string[]
  assesseeIds?: string[]
  dueDate?: string
  tagIds?: string[]
}

/** AssessmentUpdate changes an assessment; `version` is the one last read. */
export interface AssessmentUpdate {
  version: number
  title?: string
  description?: string
  dueDate?: string
  projectId?: string
  tagIds?: string[]
  standards?: AssessmentStandardInput[]
}

/** TeamUpdate replaces an assessment's team. */
export interface TeamUpdate {
  version: number
  assessorIds: string[]
  assesseeIds: string[]
}

/** RequirementRef names a catalogue requirement. */
export interface RequirementRef {
  id: string
  identifier: string
  name: string
}

/** AssessmentRequirement is one requirement of a started assessment and its answer. */
export interface AssessmentRequirement {
  /** The assessment requirement (ar_…). */
  id: string
  /** The catalogue requirement (rq_…). */
  requirementId: string
  standardId: string
  identifier: string
  name: string
  description: string
  /** The catalogue requirements above this one, outermost first. */
  ancestors: RequirementRef[] | null
  result: Result | null
  rationale: string
  assigneeId?: string
  answeredBy?: string
  answeredAt?: string
  evidenceCount: number
  claimCount: number
  version: number
}

/** ResultUpdate records a requirement's answer; `assigneeId` '' clears the assignee. */
export interface ResultUpdate {
  version: number
  result: Result | null
  rationale: string
  assigneeId?: string
}

/** EvidenceState is where a piece of evidence is in its review. */
export type EvidenceState = 'in_progress' | 'in_review' | 'claimed' | 'expired'

/** Evidence is a piece of evidence as lists show it (the fields this feature reads). */
export interface Evidence {
  id: string
  name: string
  description: string
  classification: string
  isCounterEvidence: boolean
  state: EvidenceState
  author: UserRef
  reviewer: UserRef | null
  validUntil?: string
  locked?: string
  attachmentCount: number
  assessmentCount: number
  version: number
  createdAt: string
  updatedAt: string
}

/** ClaimEvidence is a piece of evidence as a claim cites it. */
export type ClaimEvidence = Schemas['ClaimEvidence']

/** ClaimReference is an external reference of a claim (CycloneDX externalReference). */
export type ClaimReference = Schemas['ClaimReference']

/** Claim is an assertion about requirements of an assessment (CycloneDX CDXA). */
export type Claim = Schemas['Claim']

/** WorkNote is a note on an assessment; @username mentions notify the users named. */
export type WorkNote = Schemas['WorkNote']

/** TimelineEntry is one change under an assessment, from the audit log. */
export type TimelineEntry = Schemas['TimelineEntry']

/** Page is one page of a server list. */
export interface Page<T> {
  items: T[] | null
  nextCursor?: string
  hasMore: boolean
}

/** Items is a whole list (no paging). */
export interface Items<T> {
  items: T[] | null
}
