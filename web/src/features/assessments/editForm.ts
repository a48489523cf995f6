import type { StandardChoice } from './createForm'
import type { Assessment, AssessmentState, AssessmentUpdate, CompletionEvidence } from './types'

// The edit dialog's draft and what it sends: the changed fields only, with the version
// read. The standards (and their levels) change only before the assessment starts.

/** EDIT_FIELDS are the fields the server may name in a 400 about an edit. */
export const EDIT_FIELDS = ['title', 'description', 'projectId', 'standards', 'dueDate', 'tagIds', 'completionEvidence'] as const

/** EditDraft is what the edit dialog edits; '' is an empty project or due date. */
export interface EditDraft {
  title: string
  description: string
  projectId: string
  dueDate: string
  tagIds: string[]
  standards: StandardChoice[]
  completionEvidence: CompletionEvidence
}

/** STANDARDS_EDITABLE are the states in which an assessment's standards may change (before the start). */
export const STANDARDS_EDITABLE: readonly AssessmentState[] = ['new', 'pending']

/** standardsEditable reports whether an assessment in `state` takes new standards. */
export function standardsEditable(state: AssessmentState): boolean {
  return STANDARDS_EDITABLE.includes(state)
}

/** editDraft fills the dialog from an assessment. */
export function editDraft(assessment: Assessment): EditDraft {
  return {
    title: assessment.title,
    description: assessment.description ?? '',
    projectId: assessment.projectId ?? '',
    dueDate: assessment.dueDate ?? '',
    tagIds: (assessment.tags ?? []).map((tag) => tag.id),
    standards: (assessment.standards ?? []).map((standard) => ({ standardId: standard.id, levelId: standard.levelId ?? '' })),
    completionEvidence: assessment.completionEvidence,
  }
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id) => b.includes(id))
}

function sameStandards(a: readonly StandardChoice[], b: readonly StandardChoice[]): boolean {
  return a.length === b.length && a.every((row, i) => row.standardId === b[i]?.standardId && row.levelId === b[i]?.levelId)
}

/**
 * assessmentUpdate is the change from `assessment` to the draft: the changed fields with
 * the version read (an emptied project or due date is sent as ''), the standards only
 * while they may change; null when nothing changed.
 */
export function assessmentUpdate(assessment: Assessment, draft: EditDraft): AssessmentUpdate | null {
  const before = editDraft(assessment)
  const update: AssessmentUpdate = { version: assessment.version }
  let changed = false
  for (const key of ['title', 'description'] as const) {
    const value = draft[key].trim()
    if (value !== before[key]) {
      update[key] = value
      changed = true
    }
  }
  for (const key of ['projectId', 'dueDate'] as const) {
    if (draft[key] !== before[key]) {
      update[key] = draft[key]
      changed = true
    }
  }
  if (draft.completionEvidence !== before.completionEvidence) {
    update.completionEvidence = draft.completionEvidence
    changed = true
  }
  if (!sameSet(draft.tagIds, before.tagIds)) {
    update.tagIds = [...draft.tagIds]
    changed = true
  }
  const standards = draft.standards.filter((row) => row.standardId !== '')
  if (standardsEditable(assessment.state) && !sameStandards(standards, before.standards)) {
    update.standards = standards.map((row) => (row.levelId ? { standardId: row.standardId, levelId: row.levelId } : { standardId: row.standardId }))
    changed = true
  }
  return changed ? update : null
}
