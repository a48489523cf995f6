import type { components } from '../../api/schema'
import type { AssertSame } from '../../resources/catalogue/api'

// The assessment types as the API answers them: the generated schema's (src/api/schema.d.ts),
// with the lists of states and results in their usual order, checked against its enums.

type Schemas = components['schemas']

/** ASSESSMENT_STATES lists an assessment's lifecycle states, in their usual order. */
export const ASSESSMENT_STATES = ['new', 'pending', 'in_progress', 'on_hold', 'complete', 'archived', 'cancelled'] as const

/** AssessmentState is where an assessment is in its lifecycle. */
export type AssessmentState = (typeof ASSESSMENT_STATES)[number]

/** ASSESSMENT_STATES_COMPLETE proves that ASSESSMENT_STATES lists exactly the generated enum. */
export const ASSESSMENT_STATES_COMPLETE: AssertSame<Schemas['Assessment']['state'], AssessmentState> = true

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

/** RESULTS_COMPLETE proves that RESULTS lists exactly the generated enum. */
export const RESULTS_COMPLETE: AssertSame<NonNullable<Schemas['AssessmentRequirement']['result']>, Result> = true

/** UserRef names a user as records show them. */
export type UserRef = Schemas['UserRef']

/** TagRef is a tag on a record. */
export type TagRef = Schemas['TagRef']

/** AssessmentStandard is a standard the assessment is against, optionally narrowed to a level. */
export type AssessmentStandard = Schemas['AssessmentStandard']

/** AssessmentProgress counts the answers of an assessment's requirements. */
export type AssessmentProgress = Schemas['AssessmentProgress']

/**
 * Assessment is one entity assessed against one or more standards by a team. The schema
 * types `allowedStates` as plain strings; they are states.
 */
export type Assessment = Omit<Schemas['Assessment'], 'allowedStates'> & { allowedStates: AssessmentState[] | null }

/** COMPLETION_EVIDENCE_RULES are the evidence rules of completing, the default (for new assessments) last. */
export const COMPLETION_EVIDENCE_RULES = ['none', 'at_least_one', 'every_positive'] as const

/** CompletionEvidence is an assessment's rule for the evidence completing it needs. */
export type CompletionEvidence = (typeof COMPLETION_EVIDENCE_RULES)[number]

/** COMPLETION_EVIDENCE_COMPLETE proves that COMPLETION_EVIDENCE_RULES lists exactly the generated enum. */
export const COMPLETION_EVIDENCE_COMPLETE: AssertSame<Schemas['Assessment']['completionEvidence'], CompletionEvidence> = true

/** DEFAULT_COMPLETION_EVIDENCE is the rule of a new assessment, as the server's default. */
export const DEFAULT_COMPLETION_EVIDENCE: CompletionEvidence = 'every_positive'

/** CompletionCheck says whether an assessment may complete now and what blocks it, with counts. */
export type CompletionCheck = Schemas['CompletionCheck']

/** AssessmentStandardInput names a standard for a new assessment and, optionally, one of its levels. */
export type AssessmentStandardInput = Schemas['AssessmentStandardInput']

/** NewAssessment is what the create dialog posts. */
export type NewAssessment = Schemas['NewAssessment']

/** AssessmentUpdate changes an assessment; `version` is the one last read. */
export type AssessmentUpdate = Schemas['AssessmentUpdate']

/** TeamUpdate replaces an assessment's team. */
export type TeamUpdate = Schemas['TeamUpdate']

/** RequirementRef names a catalogue requirement. */
export type RequirementRef = Schemas['RequirementRef']

/** AssessmentRequirement is one requirement of a started assessment and its answer. */
export type AssessmentRequirement = Schemas['AssessmentRequirement']

/** ResultUpdate records a requirement's answer; `assigneeId` '' clears the assignee, absent keeps it. */
export type ResultUpdate = Schemas['ResultUpdate']

/** Evidence is a piece of evidence as lists show it. */
export type Evidence = Schemas['Evidence']

/** EvidenceState is where a piece of evidence is in its review. */
export type EvidenceState = Evidence['state']

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
