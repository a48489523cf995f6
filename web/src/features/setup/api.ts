import { api, timeoutSignal, unwrap } from '../../api/client'
import type { components } from '../../api/schema'
import type { Me } from '../session/api'

/** SetupStatus says whether the first administrator exists, and the password policy to create one. */
export type SetupStatus = components['schemas']['SetupStatus']

/** FirstAdministrator is what the wizard submits to create the first account. */
export type FirstAdministrator = components['schemas']['NewAccount']

const STATUS_TIMEOUT_MS = 10_000

/** fetchSetupStatus asks the server whether setup is complete (GET /api/v1/setup/status). */
export function fetchSetupStatus(): Promise<SetupStatus> {
  return unwrap(api.GET('/api/v1/setup/status', { signal: timeoutSignal(STATUS_TIMEOUT_MS) }))
}

/**
 * createFirstAdministrator creates the first administrator (POST /api/v1/setup,
 * 201 on success); the server signs them in at once by setting the session cookie.
 * Failures reject with an ApiError carrying the server's envelope.
 */
export function createFirstAdministrator(account: FirstAdministrator): Promise<Me> {
  return unwrap(api.POST('/api/v1/setup', { body: account }))
}
