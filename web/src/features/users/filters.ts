import type { components } from '../../api/schema'
import type { User } from '../../app/session/api'

// The user list's filters and the edit drawer's values; api.ts builds its requests
// from them, so this file takes its types from the schema rather than from api.ts.
type UserUpdate = components['schemas']['UserUpdate']

/** ActiveFilter narrows the list to active or inactive users; '' shows both. */
export type ActiveFilter = '' | 'true' | 'false'

/** UserFilters are the user list's search box and filters. */
export interface UserFilters {
  q: string
  active: ActiveFilter
  role: string
}

/** USER_PAGE_SIZE is how many users one page lists. */
export const USER_PAGE_SIZE = 50

/** UserQuery is the query string of GET /api/v1/users. */
export interface UserQuery {
  q?: string
  active?: 'true' | 'false'
  role?: string
  cursor?: string
  limit: number
}

/**
 * userQuery turns the filters into the list's query: the search text trimmed,
 * and every empty filter left out, so the server sees only what narrows the list.
 */
export function userQuery(filters: UserFilters, cursor?: string): UserQuery {
  const query: UserQuery = { limit: USER_PAGE_SIZE }
  const q = filters.q.trim()
  if (q !== '') query.q = q
  if (filters.active !== '') query.active = filters.active
  if (filters.role !== '') query.role = filters.role
  if (cursor) query.cursor = cursor
  return query
}

/** UserEdit holds the edit drawer's values. */
export interface UserEdit {
  email: string
  displayName: string
  active: boolean
  roles: string[]
}

/** editOf fills the edit drawer from a user. */
export function editOf(user: User): UserEdit {
  return { email: user.email, displayName: user.displayName, active: user.active, roles: [...(user.roles ?? [])] }
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a)
  return a.length === b.length && b.every((value) => set.has(value)) && set.size === new Set(b).size
}

/**
 * userUpdate builds the PATCH body: the version the drawer was filled from and only
 * the fields that changed, so a save never overwrites what it did not touch.
 * Returns null when nothing changed.
 */
export function userUpdate(user: User, edit: UserEdit): UserUpdate | null {
  const update: UserUpdate = { version: user.version }
  const email = edit.email.trim()
  const displayName = edit.displayName.trim()
  if (email !== user.email) update.email = email
  if (displayName !== user.displayName) update.displayName = displayName
  if (edit.active !== user.active) update.active = edit.active
  if (!sameSet(edit.roles, user.roles ?? [])) update.roles = [...edit.roles]
  return Object.keys(update).length === 1 ? null : update
}
