import { api, unwrap } from '../../api/client'
import type { components } from '../../api/schema'
import type { PickerChoice } from '../catalogue/api'

// The people directory (GET /people): active users' names for the pickers of assessment
// work — assessors, assessees, reviewers. Anyone who may see assessments may search it;
// the full user administration (GET /users) stays with admin.users.

/** Person is a user as the directory names them. */
export type Person = components['schemas']['UserRef']

/** PeoplePermission narrows the directory to the holders of one permission. */
export type PeoplePermission = 'assessments.view' | 'assessments.edit' | 'evidence.review'

/** PEOPLE_LIMIT is how many people a picker offers per search (the server serves at most 50). */
export const PEOPLE_LIMIT = 20

/**
 * searchPeople finds active users whose username or a word of whose display name starts
 * with `q`, holding `permission` when given.
 */
export async function searchPeople(q: string, permission?: PeoplePermission, limit = PEOPLE_LIMIT): Promise<Person[]> {
  const text = q.trim()
  const query = { ...(text ? { q: text } : {}), ...(permission ? { permission } : {}), limit }
  return (await unwrap(api.GET('/api/v1/people', { params: { query } }))).items ?? []
}

/** personLabel names a person by display name, else username. */
export function personLabel(person: Pick<Person, 'username' | 'displayName'>): string {
  return person.displayName || person.username
}

/** personChoice is a person as RemoteSelect offers them: the name, with the username as hint. */
export function personChoice(person: Person): PickerChoice {
  return { value: person.id, label: personLabel(person), hint: person.username }
}

/**
 * peopleSearch is a RemoteSelect search over the holders of `permission`, leaving out
 * the ids of `exclude` (e.g. the author of evidence, who never reviews it).
 */
export function peopleSearch(permission: PeoplePermission, exclude: () => readonly string[] = () => []): (q: string) => Promise<PickerChoice[]> {
  return async (q) => {
    const left = new Set(exclude())
    return (await searchPeople(q, permission)).filter((person) => !left.has(person.id)).map(personChoice)
  }
}
