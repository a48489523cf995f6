import { api, timeoutSignal, unwrap } from '../../api/client'
import type { components } from '../../api/schema'

/**
 * AuthOptions are the public sign-in options: whether a forgotten password can be
 * reset by e-mail, and the registration mode (REGISTRATION_MODE).
 */
export type AuthOptions = components['schemas']['AuthOptions']

/**
 * RegistrationMode is REGISTRATION_MODE, server configuration the UI only shows:
 * `disabled` (nobody registers, so invites cannot be redeemed), `invite_only` or `open`.
 */
export type RegistrationMode = AuthOptions['registrationMode']

const OPTIONS_TIMEOUT_MS = 10_000

/**
 * fetchAuthOptions reads the public sign-in options (GET /api/v1/auth/options). The
 * sign-in and registration pages use them to offer only what works, the invites page
 * to warn when invites cannot be redeemed.
 */
export function fetchAuthOptions(): Promise<AuthOptions> {
  return unwrap(api.GET('/api/v1/auth/options', { signal: timeoutSignal(OPTIONS_TIMEOUT_MS) }))
}
