import { api, unwrap } from '../../api/client'
import type { components } from '../../api/schema'
import type { PickerChoice } from '../../resources/catalogue/api'
import { assessmentQuery, type AssessmentFilters } from './filters'
import type {
  Assessment,
  AssessmentRequirement,
  AssessmentState,
  AssessmentUpdate,
  Claim,
  CompletionCheck,
  Evidence,
  NewAssessment,
  Page,
  ResultUpdate,
  TeamUpdate,
  TimelineEntry,
  UserRef,
  WorkNote,
} from './types'

export { VERSION_CONFLICT } from '../../api/errors'

type Schemas = components['schemas']

// The assessment operations of the API, through the typed client: assessments, their
// requirements and results, the evidence linked to them, claims, work notes, mentions and
// the timeline, plus the catalogue look-ups of the create dialog.

/** INVALID_STATE_TRANSITION is the error code of a move the lifecycle does not allow. */
export const INVALID_STATE_TRANSITION = 'invalid_state_transition'
/** BUSINESS_RULE_VIOLATION is the error code of a refused precondition (details carry counts). */
export const BUSINESS_RULE_VIOLATION = 'business_rule_violation'

// Assessments (typed client).

const asAssessment = (answer: Promise<Schemas['Assessment']>) => answer as Promise<Assessment>

/** listAssessments lists assessments matching the filters (GET /assessments). */
export async function listAssessments(filters: AssessmentFilters, cursor?: string): Promise<Page<Assessment>> {
  const page = await unwrap(api.GET('/api/v1/assessments', { params: { query: assessmentQuery(filters, cursor) } }))
  return page as Page<Assessment>
}

/** fetchAssessment reads one assessment; 404 when unknown or not visible. */
export function fetchAssessment(id: string): Promise<Assessment> {
  return asAssessment(unwrap(api.GET('/api/v1/assessments/{id}', { params: { path: { id } } })))
}

/** createAssessment adds an assessment (201, state new). */
export function createAssessment(input: NewAssessment): Promise<Assessment> {
  return asAssessment(unwrap(api.POST('/api/v1/assessments', { body: input })))
}

/** updateAssessment changes title, description, due date, project, tags or (before the start) standards. */
export function updateAssessment(id: string, update: AssessmentUpdate): Promise<Assessment> {
  return asAssessment(unwrap(api.PATCH('/api/v1/assessments/{id}', { params: { path: { id } }, body: update })))
}

/** updateTeam replaces the assessors and assessees. */
export function updateTeam(id: string, update: TeamUpdate): Promise<Assessment> {
  return asAssessment(unwrap(api.PUT('/api/v1/assessments/{id}/team', { params: { path: { id } }, body: update })))
}

/** transitionAssessment moves an assessment to `to`; 409 invalid_state_transition or 422 with precondition counts. */
export function transitionAssessment(id: string, to: AssessmentState, version: number, reason?: string): Promise<Assessment> {
  const body = { to, version, ...(reason ? { reason } : {}) }
  return asAssessment(unwrap(api.POST('/api/v1/assessments/{id}/transition', { params: { path: { id } }, body })))
}

/** fetchCompletionCheck asks whether the assessment may complete now, and what blocks it (nothing changes). */
export function fetchCompletionCheck(id: string): Promise<CompletionCheck> {
  return unwrap(api.GET('/api/v1/assessments/{id}/completion-check', { params: { path: { id } } }))
}

/** deleteAssessment removes an assessment (refused once complete or archived). */
export async function deleteAssessment(id: string, version: number): Promise<void> {
  await unwrap(api.DELETE('/api/v1/assessments/{id}', { params: { path: { id }, query: { version } } }))
}

// Requirements and results.

/** RequirementQuery narrows the workspace list on the server. */
export interface RequirementQuery {
  q?: string
  result?: string
  mine?: boolean
  noEvidence?: boolean
  standard?: string
}

const requirementPath = (id: string, arId: string) => ({ path: { id, arId } })

/** RequirementList is an assessment's requirements with the fewest words a rationale needs (0: no minimum). */
export interface RequirementList {
  items: AssessmentRequirement[]
  rationaleMinWords: number
}

/** listRequirements reads an assessment's requirements in tree order (whole list) and the rationale minimum. */
export async function listRequirements(id: string, query: RequirementQuery = {}): Promise<RequirementList> {
  const answer = await unwrap(api.GET('/api/v1/assessments/{id}/requirements', { params: { path: { id }, query } }))
  return { items: answer.items ?? [], rationaleMinWords: answer.rationaleMinWords }
}

/** fetchRequirement reads one requirement of an assessment. */
export function fetchRequirement(id: string, arId: string): Promise<AssessmentRequirement> {
  return unwrap(api.GET('/api/v1/assessments/{id}/requirements/{arId}', { params: requirementPath(id, arId) }))
}

/** saveResult records a requirement's result, rationale and assignee (400 rationale too_short, 409 version_conflict). */
export function saveResult(id: string, arId: string, update: ResultUpdate): Promise<AssessmentRequirement> {
  return unwrap(api.PUT('/api/v1/assessments/{id}/requirements/{arId}', { params: requirementPath(id, arId), body: update }))
}

// Evidence, as far as the workspace shows it (typed client).

/** listEvidence lists the evidence linked to an assessment or one of its requirements. */
export function listEvidence(filter: { assessment?: string; requirement?: string; q?: string }, cursor?: string): Promise<Page<Evidence>> {
  return unwrap(api.GET('/api/v1/evidence', { params: { query: { ...filter, cursor, limit: 50 } } }))
}

/** unlinkEvidence removes the link between a piece of evidence and a requirement. */
export async function unlinkEvidence(evidenceId: string, arId: string): Promise<void> {
  await unwrap(api.DELETE('/api/v1/evidence/{id}/links/{arId}', { params: { path: { id: evidenceId, arId } } }))
}

// Claims, work notes, mentions and the timeline (typed client).

const assessmentPath = (id: string) => ({ path: { id } })

/** listClaims reads a page of an assessment's claims, oldest first. */
export function listClaims(id: string, cursor?: string): Promise<Page<Claim>> {
  return unwrap(api.GET('/api/v1/assessments/{id}/claims', { params: { ...assessmentPath(id), query: { cursor, limit: 50 } } }))
}

/** deleteClaim removes a claim. */
export async function deleteClaim(claim: Claim): Promise<void> {
  await unwrap(api.DELETE('/api/v1/claims/{id}', { params: { path: { id: claim.id }, query: { version: claim.version } } }))
}

/** listNotes reads a page of work notes, newest first. */
export function listNotes(id: string, cursor?: string): Promise<Page<WorkNote>> {
  return unwrap(api.GET('/api/v1/assessments/{id}/notes', { params: { ...assessmentPath(id), query: { cursor, limit: 50 } } }))
}

/** addNote posts a work note; @username mentions notify those who may see the assessment. */
export function addNote(id: string, content: string): Promise<WorkNote> {
  return unwrap(api.POST('/api/v1/assessments/{id}/notes', { params: assessmentPath(id), body: { content } }))
}

/** editNote changes one's own note. */
export function editNote(note: WorkNote, content: string): Promise<WorkNote> {
  return unwrap(
    api.PATCH('/api/v1/assessments/{id}/notes/{noteId}', {
      params: { path: { id: note.assessmentId, noteId: note.id } },
      body: { version: note.version, content },
    }),
  )
}

/** deleteNote removes one's own note. */
export async function deleteNote(note: WorkNote): Promise<void> {
  await unwrap(
    api.DELETE('/api/v1/assessments/{id}/notes/{noteId}', {
      params: { path: { id: note.assessmentId, noteId: note.id }, query: { version: note.version } },
    }),
  )
}

/** listMentionable lists the users a note may mention (team and evidence participants, at most 50), by prefix. */
export async function listMentionable(id: string, q = ''): Promise<UserRef[]> {
  const text = q.trim()
  const answer = await unwrap(api.GET('/api/v1/assessments/{id}/mentionable', { params: { ...assessmentPath(id), query: text ? { q: text } : {} } }))
  return answer.items ?? []
}

/** listTimeline reads a page of the assessment's timeline, newest first. */
export function listTimeline(id: string, cursor?: string): Promise<Page<TimelineEntry>> {
  return unwrap(api.GET('/api/v1/assessments/{id}/timeline', { params: { ...assessmentPath(id), query: { cursor, limit: 50 } } }))
}

// Catalogue look-ups for the create dialog and the list's filters (typed client).

/** ProjectChoice is a project as the pickers show it, with the standards it assesses against. */
export interface ProjectChoice {
  id: string
  name: string
  standardIds: string[]
}

/** searchProjects finds projects by name for the pickers (up to 20). */
export async function searchProjects(q: string): Promise<ProjectChoice[]> {
  const text = q.trim()
  const page = await unwrap(api.GET('/api/v1/projects', { params: { query: { ...(text ? { q: text } : {}), limit: 20 } } }))
  return (page.items ?? []).map((project) => ({ id: project.id, name: project.name, standardIds: (project.standards ?? []).map((s) => s.id) }))
}

/** projectChoices searches projects for a picker or a filter. */
export async function projectChoices(q: string): Promise<PickerChoice[]> {
  return (await searchProjects(q)).map((project) => ({ value: project.id, label: project.name }))
}

/** fetchProjectChoice reads one project with its standards. */
export async function fetchProjectChoice(id: string): Promise<ProjectChoice> {
  const project = await unwrap(api.GET('/api/v1/projects/{id}', { params: { path: { id } } }))
  return { id: project.id, name: project.name, standardIds: (project.standards ?? []).map((s) => s.id) }
}
