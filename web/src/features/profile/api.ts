import { api, unwrap } from '../../api/client'
import type { components } from '../../api/schema'
import type { Me, User } from '../../app/session/api'

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

/** ProfileUpdate is a change to the signed-in user's own account; `version` is the one last read. */
export type ProfileUpdate = components['schemas']['ProfileUpdate']

/** ProfileEdit holds the edit-profile form's values. */
export interface ProfileEdit {
  displayName: string
  email: string
}

/**
 * profileUpdate builds the PATCH body: the version the form was filled from and only
 * the fields that changed (trimmed), so a save never overwrites what it did not touch.
 * Returns null when nothing changed.
 */
export function profileUpdate(user: Pick<User, 'version' | 'displayName' | 'email'>, edit: ProfileEdit): ProfileUpdate | null {
  const update: ProfileUpdate = { version: user.version }
  const displayName = edit.displayName.trim()
  const email = edit.email.trim()
  if (displayName !== user.displayName) update.displayName = displayName
  if (email !== user.email) update.email = email
  return Object.keys(update).length === 1 ? null : update
}

/**
 * updateProfile changes the signed-in user's display name or e-mail address
 * (PATCH /api/v1/auth/me) and answers with the session as GET /auth/me would. A
 * stale `version` rejects with a 409 ApiError whose code is `version_conflict`.
 */
export function updateProfile(update: ProfileUpdate): Promise<Me> {
  return unwrap(api.PATCH('/api/v1/auth/me', { body: update }))
}
