import { api, unwrap } from '../../api/client'
import type { components } from '../../api/schema'

/** PasswordChange is what the change-password form submits. */
export type PasswordChange = components['schemas']['PasswordInputBody']

/**
 * changePassword replaces the signed-in user's password (POST /api/v1/auth/password,
 * 204). The server ends the user's other sessions; this one stays. A wrong current
 * password or an unacceptable new one rejects with a 400 ApiError whose details
 * name the field (`currentPassword`, or `password` for the new one).
 */
export async function changePassword(change: PasswordChange): Promise<void> {
  await unwrap(api.POST('/api/v1/auth/password', { body: change }))
}
