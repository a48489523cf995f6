import type { ApiError } from '../../api/errors'
import type { NewProject, ProjectUpdate } from './api'
import { PROJECT_STATES, type Project, type ProjectState } from './types'

/** PROJECT_NAME_MAX_LENGTH bounds a project's name, as the server does. */
export const PROJECT_NAME_MAX_LENGTH = 300

/** PROJECT_FIELDS are the dialog's fields, named as the API's JSON names them. */
export const PROJECT_FIELDS = [
  'name',
  'description',
  'state',
  'startDate',
  'dueDate',
  'standardIds',
  'entityIds',
  'tagIds',
  'ownerId',
] as const

/** ProjectField is one of PROJECT_FIELDS. */
export type ProjectField = (typeof PROJECT_FIELDS)[number]

/** INITIAL_STATES are the states a project may be created in. */
export const INITIAL_STATES = ['new', 'in_progress', 'on_hold'] as const

/** InitialState is one of INITIAL_STATES. */
export type InitialState = (typeof INITIAL_STATES)[number]

/** ProjectDraft is what the project dialog edits; dates are YYYY-MM-DD or ''. */
export interface ProjectDraft {
  name: string
  description: string
  state: InitialState
  startDate: string
  dueDate: string
  standardIds: string[]
  entityIds: string[]
  tagIds: string[]
  ownerId: string
}

/** projectDraft fills the dialog from a project, or empty for a new one. */
export function projectDraft(project?: Project | null): ProjectDraft {
  return {
    name: project?.name ?? '',
    description: project?.description ?? '',
    state: 'new',
    startDate: project?.startDate ?? '',
    dueDate: project?.dueDate ?? '',
    standardIds: (project?.standards ?? []).map((standard) => standard.id),
    entityIds: (project?.entities ?? []).map((entity) => entity.id),
    tagIds: (project?.tags ?? []).map((tag) => tag.id),
    ownerId: project?.ownerId ?? '',
  }
}

/** dueBeforeStart reports dates in the wrong order (both set; ISO days compare as text). */
export function dueBeforeStart(draft: Pick<ProjectDraft, 'startDate' | 'dueDate'>): boolean {
  return draft.startDate !== '' && draft.dueDate !== '' && draft.dueDate < draft.startDate
}

/** newProject builds the create body, leaving out what is empty; `withOwner` is false when the caller cannot pick users. */
export function newProject(draft: ProjectDraft, withOwner: boolean): NewProject {
  const body: NewProject = { name: draft.name.trim() }
  const description = draft.description.trim()
  if (description !== '') body.description = description
  if (draft.state !== 'new') body.state = draft.state
  if (draft.startDate !== '') body.startDate = draft.startDate
  if (draft.dueDate !== '') body.dueDate = draft.dueDate
  if (draft.standardIds.length > 0) body.standardIds = [...draft.standardIds]
  if (draft.entityIds.length > 0) body.entityIds = [...draft.entityIds]
  if (draft.tagIds.length > 0) body.tagIds = [...draft.tagIds]
  if (withOwner && draft.ownerId !== '') body.ownerId = draft.ownerId
  return body
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a)
  return set.size === new Set(b).size && b.every((value) => set.has(value))
}

/** projectUpdate builds the PATCH body with only what changed; null when nothing did. */
export function projectUpdate(project: Project, draft: ProjectDraft, withOwner: boolean): ProjectUpdate | null {
  const before = projectDraft(project)
  const update: ProjectUpdate = { version: project.version }
  const name = draft.name.trim()
  const description = draft.description.trim()
  if (name !== before.name) update.name = name
  if (description !== before.description) update.description = description
  if (draft.startDate !== before.startDate) update.startDate = draft.startDate
  if (draft.dueDate !== before.dueDate) update.dueDate = draft.dueDate
  if (!sameSet(draft.standardIds, before.standardIds)) update.standardIds = [...draft.standardIds]
  if (!sameSet(draft.entityIds, before.entityIds)) update.entityIds = [...draft.entityIds]
  if (!sameSet(draft.tagIds, before.tagIds)) update.tagIds = [...draft.tagIds]
  if (withOwner && draft.ownerId !== before.ownerId) update.ownerId = draft.ownerId
  return Object.keys(update).length === 1 ? null : update
}

/**
 * PROJECT_TRANSITIONS mirrors assess.ProjectLifecycle, so the state dialog offers only
 * the moves the server allows; should they ever differ, the server's 409 names the allowed ones.
 */
export const PROJECT_TRANSITIONS: Record<ProjectState, readonly ProjectState[]> = {
  new: ['in_progress', 'on_hold', 'retired'],
  in_progress: ['on_hold', 'complete', 'retired'],
  on_hold: ['in_progress', 'retired'],
  complete: ['operational', 'in_progress', 'retired'],
  operational: ['in_progress', 'retired'],
  retired: [],
}

/** allowedStatesOf reads the allowed states from a 409 invalid_state_transition (details with code "allowed"). */
export function allowedStatesOf(error: ApiError): ProjectState[] {
  return error.details
    .filter((detail) => detail.code === 'allowed' && (PROJECT_STATES as readonly string[]).includes(detail.message ?? ''))
    .map((detail) => detail.message as ProjectState)
}

/**
 * formatDay shows a calendar day (YYYY-MM-DD) in the viewer's language without moving
 * it through a time zone (a due date is a day, not an instant); null for none.
 */
export function formatDay(day: string | undefined, locale: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day ?? '')
  if (!match) return null
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])))
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(date)
}
