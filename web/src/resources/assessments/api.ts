import { api, unwrap } from '../../api/client'
import type { components } from '../../api/schema'
import type { CursorPage } from '../../app/cursorList'

// The assessments as other records' pages list them (an entity's, a project's): the list
// operation narrowed to the record, through the typed client.

type Schemas = components['schemas']

/** AssessmentState is where an assessment is in its lifecycle. */
export type AssessmentState = Schemas['Assessment']['state']

/** AssessmentRow is an assessment as a list shows it. */
export type AssessmentRow = Schemas['Assessment']

/** AssessmentScope names the record whose assessments a list shows. */
export type AssessmentScope = { entity: string } | { project: string }

/** RELATED_PAGE_SIZE is how many assessments one page of such a list shows. */
export const RELATED_PAGE_SIZE = 10

/** listAssessmentsOf lists the assessments of an entity or a project the viewer may see, soonest due first. */
export async function listAssessmentsOf(scope: AssessmentScope, cursor?: string): Promise<CursorPage<AssessmentRow>> {
  const query = { ...scope, sort: 'dueDate' as const, limit: RELATED_PAGE_SIZE, ...(cursor ? { cursor } : {}) }
  return unwrap(api.GET('/api/v1/assessments', { params: { query } }))
}
