import type { Client } from 'openapi-fetch'
import { api, timeoutSignal, unwrap, type ErrorEnvelope } from '../../api/client'
import type { components, paths } from '../../api/schema'

/** SetupStatus says whether the first administrator exists, and the password policy to create one. */
export type SetupStatus = components['schemas']['SetupStatus']

/** FirstAdministrator is what the wizard submits to create the first account. */
export interface FirstAdministrator {
  username: string
  email: string
  displayName: string
  password: string
}

// POST /api/v1/setup is added to the server by a later issue. Until the OpenAPI
// document declares it, this describes it in the generated client's format; once
// the document has the path, the generated type takes over automatically and this
// fallback (and the cast below) should be deleted.
interface PendingSetupPaths {
  '/api/v1/setup': {
    parameters: { query?: never; header?: never; path?: never; cookie?: never }
    post: {
      parameters: { query?: never; header?: never; path?: never; cookie?: never }
      requestBody: { content: { 'application/json': FirstAdministrator } }
      responses: {
        201: { headers: Record<string, unknown>; content: { 'application/json': unknown } }
        default: { headers: Record<string, unknown>; content: { 'application/json': ErrorEnvelope } }
      }
    }
  }
}

type SetupPaths = '/api/v1/setup' extends keyof paths ? paths : paths & PendingSetupPaths

const setupApi = api as unknown as Client<SetupPaths>

const STATUS_TIMEOUT_MS = 10_000

/** fetchSetupStatus asks the server whether setup is complete (GET /api/v1/setup/status). */
export function fetchSetupStatus(): Promise<SetupStatus> {
  return unwrap(api.GET('/api/v1/setup/status', { signal: timeoutSignal(STATUS_TIMEOUT_MS) }))
}

/**
 * createFirstAdministrator creates the first administrator (POST /api/v1/setup,
 * 201 on success). Failures reject with an ApiError carrying the server's envelope.
 */
export async function createFirstAdministrator(account: FirstAdministrator): Promise<void> {
  await unwrap(setupApi.POST('/api/v1/setup', { body: account }))
}
