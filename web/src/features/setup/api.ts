import { api, unwrap } from '../../api/client'
import type { components } from '../../api/schema'
import type { Me } from '../../app/session/api'

/** FirstAdministrator is what the wizard submits to create the first account. */
export type FirstAdministrator = components['schemas']['NewAccount']

/**
 * createFirstAdministrator creates the first administrator (POST /api/v1/setup,
 * 201 on success); the server signs them in at once by setting the session cookie.
 * Failures reject with an ApiError carrying the server's envelope.
 */
export function createFirstAdministrator(account: FirstAdministrator): Promise<Me> {
  return unwrap(api.POST('/api/v1/setup', { body: account }))
}
