import { api, unwrap } from '../../api/client'
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
