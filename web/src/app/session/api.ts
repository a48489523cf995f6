import { api, timeoutSignal, unwrap } from '../../api/client'
import type { components } from '../../api/schema'

/** Me is the signed-in user with the permissions their roles grant (GET /api/v1/auth/me). */
export type Me = components['schemas']['Me']

/** User is an account as the server describes it. */
export type User = components['schemas']['User']

/** NewAccount is what a person fills in to get an account: the setup wizard's first administrator, or a registration. */
export type NewAccount = components['schemas']['NewAccount']

const ME_TIMEOUT_MS = 10_000

/**
 * fetchMe asks the server who is signed in. Without a valid session cookie it
 * rejects with an ApiError of status 401.
 */
export function fetchMe(): Promise<Me> {
  return unwrap(api.GET('/api/v1/auth/me', { signal: timeoutSignal(ME_TIMEOUT_MS) }))
}

/** signOut ends the current session on the server, which also clears the cookie (POST /api/v1/auth/logout). */
export async function signOut(): Promise<void> {
  await unwrap(api.POST('/api/v1/auth/logout'))
}
