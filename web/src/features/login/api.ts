import { api, timeoutSignal, unwrap } from '../../api/client'
import type { components } from '../../api/schema'
import type { Me } from '../../app/session/api'

/** Credentials are what the sign-in form submits; `username` may also be an e-mail address. */
export type Credentials = components['schemas']['LoginInputBody']

/**
 * signIn starts a session (POST /api/v1/auth/login); the server answers with the
 * user and sets the session cookie. Every failure (unknown user, wrong password,
 * locked account) rejects with the same 401 ApiError carrying the server's message.
 */
export function signIn(credentials: Credentials): Promise<Me> {
  return unwrap(api.POST('/api/v1/auth/login', { body: credentials }))
}

const OPTIONS_TIMEOUT_MS = 10_000

/**
 * fetchPasswordResetAvailable asks whether a forgotten password can be reset by
 * e-mail on this installation (GET /api/v1/auth/options): true while e-mail is on.
 * The sign-in page offers its "Forgot password?" link only then.
 */
export async function fetchPasswordResetAvailable(): Promise<boolean> {
  return (await unwrap(api.GET('/api/v1/auth/options', { signal: timeoutSignal(OPTIONS_TIMEOUT_MS) }))).passwordReset
}
