import { api, unwrap } from '../../api/client'
import type { components } from '../../api/schema'

/** Registration is what the registration page submits; `inviteToken` is needed when only invitees may register. */
export type Registration = components['schemas']['Registration']

/**
 * registerAccount asks for an account (POST /api/v1/auth/register). The server answers
 * the same 202 message whether or not an account was created (so nobody can probe
 * which usernames exist), 403 registration_closed when the installation's mode
 * forbids it, and 400 for an invalid invite or form.
 */
export async function registerAccount(registration: Registration): Promise<string> {
  return (await unwrap(api.POST('/api/v1/auth/register', { body: registration }))).message
}
