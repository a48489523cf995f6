import { api, unwrap } from '../../api/client'
import type { components } from '../../api/schema'
import { projectQuery, type ProjectFilters } from './filters'
import type { Project, ProjectFigures, ProjectState } from './types'

export type { Project, ProjectFigures }
export { VERSION_CONFLICT } from '../../api/errors'

type Schemas = components['schemas']

/** ProjectPage is one page of the project list. */
export type ProjectPage = Schemas['PageProject']
/** NewProject is what the create dialog submits. */
export type NewProject = Schemas['NewProject']
/** ProjectUpdate is a change to a project; `version` is the one last read. */
export type ProjectUpdate = Schemas['ProjectUpdate']

/** INVALID_STATE_TRANSITION is the error code of a state change the lifecycle does not allow. */
export const INVALID_STATE_TRANSITION = 'invalid_state_transition'

const byId = (id: string) => ({ params: { path: { id } } })

/** listProjects lists projects matching the filters (GET /api/v1/projects). */
export function listProjects(filters: ProjectFilters, cursor?: string): Promise<ProjectPage> {
  return unwrap(api.GET('/api/v1/projects', { params: { query: projectQuery(filters, cursor) } }))
}

/** fetchProject reads one project; 404 for an unknown id. */
export function fetchProject(id: string): Promise<Project> {
  return unwrap(api.GET('/api/v1/projects/{id}', byId(id)))
}

/** fetchProjectFigures reads a project's figures (progress, overdue, coverage, warnings). */
export function fetchProjectFigures(id: string): Promise<ProjectFigures> {
  return unwrap(api.GET('/api/v1/projects/{id}/figures', byId(id)))
}

/** createProject adds a project (POST /api/v1/projects, 201). */
export function createProject(project: NewProject): Promise<Project> {
  return unwrap(api.POST('/api/v1/projects', { body: project }))
}

/** updateProject changes a project; a stale version is 409 version_conflict, an archived project 422 project_archived. */
export function updateProject(id: string, update: ProjectUpdate): Promise<Project> {
  return unwrap(api.PATCH('/api/v1/projects/{id}', { ...byId(id), body: update }))
}

/** changeProjectState moves a project through its lifecycle; 409 invalid_state_transition lists the allowed states. */
export function changeProjectState(id: string, state: ProjectState, version: number): Promise<Project> {
  return unwrap(api.POST('/api/v1/projects/{id}/state', { ...byId(id), body: { state, version } }))
}

/** archiveProject archives a project (archived true) or restores it (false). */
export function archiveProject(id: string, version: number, archived: boolean): Promise<Project> {
  return unwrap(api.POST('/api/v1/projects/{id}/archive', { ...byId(id), body: { version, archived } }))
}

/** deleteProject removes a project for good, with its links. */
export async function deleteProject(id: string): Promise<void> {
  await unwrap(api.DELETE('/api/v1/projects/{id}', byId(id)))
}
