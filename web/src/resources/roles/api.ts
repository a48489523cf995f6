import { api, unwrap } from '../../api/client'
import type { components } from '../../api/schema'

/** Role is a named set of permissions; built-in roles cannot be changed. */
export type Role = components['schemas']['Role']

/** fetchRoles lists every role, built-in roles first (GET /api/v1/roles, any signed-in user). */
export async function fetchRoles(): Promise<Role[]> {
  return (await unwrap(api.GET('/api/v1/roles'))).items ?? []
}
