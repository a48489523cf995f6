import { api, unwrap } from '../../api/client'
import type { components } from '../../api/schema'
import type { Role } from '../../resources/roles/api'

/** Permission is one entry of the permission catalogue. */
export type Permission = components['schemas']['Permission']

/** NewRole is what the role editor submits to create a custom role. */
export type NewRole = components['schemas']['NewRole']

/** RoleUpdate is a change to a custom role; `version` is the one last read. */
export type RoleUpdate = components['schemas']['RoleUpdate']

/** fetchPermissions reads the permission catalogue (GET /api/v1/permissions). */
export async function fetchPermissions(): Promise<Permission[]> {
  return (await unwrap(api.GET('/api/v1/permissions'))).items ?? []
}

/** createRole creates a custom role (POST /api/v1/roles, 201); a taken name answers 409. */
export function createRole(role: NewRole): Promise<Role> {
  return unwrap(api.POST('/api/v1/roles', { body: role }))
}

/** updateRole changes a custom role (PATCH /api/v1/roles/{id}); a stale version answers 409. */
export function updateRole(id: string, update: RoleUpdate): Promise<Role> {
  return unwrap(api.PATCH('/api/v1/roles/{id}', { params: { path: { id } }, body: update }))
}

/** deleteRole deletes a custom role (DELETE /api/v1/roles/{id}, 204); 409 while users hold it. */
export async function deleteRole(id: string): Promise<void> {
  await unwrap(api.DELETE('/api/v1/roles/{id}', { params: { path: { id } } }))
}
