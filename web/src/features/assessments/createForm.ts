import { DEFAULT_COMPLETION_EVIDENCE, type CompletionEvidence, type NewAssessment } from './types'

// The create dialog's form: a draft the inputs edit and the NewAssessment it posts.

/** TITLE_MAX_LENGTH is the longest title the server takes. */
export const TITLE_MAX_LENGTH = 200

/** MAX_STANDARDS is how many standards one assessment may be against. */
export const MAX_STANDARDS = 20

/** ASSESSMENT_FIELDS are the fields the server may name in a 400. */
export const ASSESSMENT_FIELDS = [
  'title', 'description', 'entityId', 'projectId', 'standards', 'assessorIds', 'assesseeIds', 'dueDate', 'tagIds',
  'completionEvidence',
] as const

/** StandardChoice is one standard of the draft with its optional level ('' for all requirements). */
export interface StandardChoice {
  standardId: string
  levelId: string
}

/** AssessmentDraft is what the create dialog edits. */
export interface AssessmentDraft {
  title: string
  description: string
  entityId: string
  projectId: string
  standards: StandardChoice[]
  assessorIds: string[]
  assesseeIds: string[]
  dueDate: string
  tagIds: string[]
  /** completionEvidence is the evidence completing needs (every yes and partial answer's, by default). */
  completionEvidence: CompletionEvidence
}

/** AssessmentPrefill is what a new assessment opened from an entity's or a project's page starts with. */
export interface AssessmentPrefill {
  entityId?: string
  projectId?: string
  /** entityName and projectName name them in the pickers until a search finds them. */
  entityName?: string
  projectName?: string
}

/** emptyDraft is a blank assessment; `prefill` sets its entity or project (a new assessment from their page). */
export function emptyDraft(prefill?: AssessmentPrefill | null): AssessmentDraft {
  return {
    title: '',
    description: '',
    entityId: prefill?.entityId ?? '',
    projectId: prefill?.projectId ?? '',
    standards: [],
    assessorIds: [],
    assesseeIds: [],
    dueDate: '',
    tagIds: [],
    completionEvidence: DEFAULT_COMPLETION_EVIDENCE,
  }
}

/** newAssessment turns the draft into the body of POST /assessments, leaving out what is blank. */
export function newAssessment(draft: AssessmentDraft): NewAssessment {
  const body: NewAssessment = {
    title: draft.title.trim(),
    entityId: draft.entityId,
    standards: draft.standards.filter((s) => s.standardId !== '').map((s) => (s.levelId ? { standardId: s.standardId, levelId: s.levelId } : { standardId: s.standardId })),
    completionEvidence: draft.completionEvidence,
  }
  const description = draft.description.trim()
  if (description !== '') body.description = description
  if (draft.projectId !== '') body.projectId = draft.projectId
  if (draft.assessorIds.length > 0) body.assessorIds = [...draft.assessorIds]
  if (draft.assesseeIds.length > 0) body.assesseeIds = [...draft.assesseeIds]
  if (draft.dueDate !== '') body.dueDate = draft.dueDate
  if (draft.tagIds.length > 0) body.tagIds = [...draft.tagIds]
  return body
}

/** StandardOption is a published standard as the picker offers it. */
export interface StandardOption {
  id: string
  label: string
  /** inProject marks the standards of the chosen project, offered first. */
  inProject: boolean
}

/**
 * standardOptions orders the published standards for the picker: those of the chosen
 * project first (in the project's order), then the rest by name.
 */
export function standardOptions(published: readonly { id: string; label: string }[], projectStandardIds: readonly string[]): StandardOption[] {
  const inProject = new Set(projectStandardIds)
  const first = projectStandardIds
    .map((id) => published.find((standard) => standard.id === id))
    .filter((standard): standard is { id: string; label: string } => standard !== undefined)
    .map((standard) => ({ ...standard, inProject: true }))
  const rest = published
    .filter((standard) => !inProject.has(standard.id))
    .map((standard) => ({ ...standard, inProject: false }))
    .sort((a, b) => a.label.localeCompare(b.label))
  return [...first, ...rest]
}

/** overlap lists users chosen both as assessor and assessee (the server takes one role per member). */
export function overlap(draft: Pick<AssessmentDraft, 'assessorIds' | 'assesseeIds'>): string[] {
  const assessees = new Set(draft.assesseeIds)
  return draft.assessorIds.filter((id) => assessees.has(id))
}
