import { api, unwrap } from '../../api/client'
import type { components } from '../../api/schema'
import type { User } from '../../app/session/api'
import { userQuery, type UserFilters } from './filters'

export type { User }

/** UserPage is one page of the user list. */
export type UserPage = components['schemas']['PageUser']

/** NewUser is what the create-user dialog submits. */
export type NewUser = components['schemas']['NewUser']

/** UserUpdate is a change to a user; `version` is the one last read. */
export type UserUpdate = components['schemas']['UserUpdate']

export { VERSION_CONFLICT } from '../../api/errors'

/** listUsers lists users matching the filters, ordered by username (GET /api/v1/users). */
export function listUsers(filters: UserFilters, cursor?: string): Promise<UserPage> {
  return unwrap(api.GET('/api/v1/users', { params: { query: userQuery(filters, cursor) } }))
}

/** fetchUser reads one user afresh (GET /api/v1/users/{id}), e.g. after a version conflict. */
export function fetchUser(id: string): Promise<User> {
  return unwrap(api.GET('/api/v1/users/{id}', { params: { path: { id } } }))
}

/** createUser creates an account (POST /api/v1/users, 201), whatever the registration mode. */
export function createUser(user: NewUser): Promise<User> {
  return unwrap(api.POST('/api/v1/users', { body: user }))
}

/**
 * updateUser changes a user (PATCH /api/v1/users/{id}). A stale `version` rejects
 * with a 409 ApiError whose code is VERSION_CONFLICT.
 */
export function updateUser(id: string, update: UserUpdate): Promise<User> {
  return unwrap(api.PATCH('/api/v1/users/{id}', { params: { path: { id } }, body: update }))
}

/** setUserPassword sets a new password (POST /api/v1/users/{id}/password, 204), ending the user's sessions. */
export async function setUserPassword(id: string, password: string): Promise<void> {
  await unwrap(api.POST('/api/v1/users/{id}/password', { params: { path: { id } }, body: { password } }))
}
