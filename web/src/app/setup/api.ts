import { api, timeoutSignal, unwrap } from '../../api/client'
import type { components } from '../../api/schema'

/** SetupStatus says whether the first administrator exists, and the password policy to create one. */
export type SetupStatus = components['schemas']['SetupStatus']

const STATUS_TIMEOUT_MS = 10_000

/** fetchSetupStatus asks the server whether setup is complete (GET /api/v1/setup/status). */
export function fetchSetupStatus(): Promise<SetupStatus> {
  return unwrap(api.GET('/api/v1/setup/status', { signal: timeoutSignal(STATUS_TIMEOUT_MS) }))
}
