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

/** SigningKey is one of the signed-in user's public signing keys; `keyId` is its RFC 7638 thumbprint. */
export type SigningKey = components['schemas']['SigningKey']

/** NewSigningKey is what the add-key dialog submits: a label, the algorithm and the public JWK. */
export type NewSigningKey = components['schemas']['NewSigningKey']

/** SigningKeys are the signed-in user's keys, and whether the server can hold one for them. */
export interface SigningKeys {
  keys: SigningKey[]
  /** heldKeysAvailable is false when the server cannot hold a key (no encryption at rest): generating one is refused. */
  heldKeysAvailable: boolean
}

/**
 * listSigningKeys lists the signed-in user's public signing keys, newest first
 * (GET /api/v1/me/signing-keys, permission signatures.manage): those added here and
 * those recorded when the user signed an attestation digitally.
 */
export async function listSigningKeys(): Promise<SigningKeys> {
  const list = await unwrap(api.GET('/api/v1/me/signing-keys'))
  return { keys: list.items ?? [], heldKeysAvailable: list.heldKeysAvailable }
}

/**
 * addSigningKey adds a public key (POST /api/v1/me/signing-keys, 201). A private member
 * rejects with 400 validation_failed, a key of an unsupported kind with 422, and a key
 * already on the profile with 409 already_exists.
 */
export function addSigningKey(key: NewSigningKey): Promise<SigningKey> {
  return unwrap(api.POST('/api/v1/me/signing-keys', { body: key }))
}

/** deleteSigningKey removes a key (DELETE /api/v1/me/signing-keys/{id}, 204); documents signed with it stay valid. */
export async function deleteSigningKey(id: string): Promise<void> {
  await unwrap(api.DELETE('/api/v1/me/signing-keys/{id}', { params: { path: { id } } }))
}

/** NewHeldSigningKey asks the server to generate a key it holds: a label and Ed25519 or ES256. */
export type NewHeldSigningKey = components['schemas']['NewHeldSigningKey']

/**
 * generateHeldSigningKey has the server generate a key pair it holds for the signed-in
 * user (POST /api/v1/me/signing-keys/generate, 201). The answer carries the public key
 * only. Without encryption at rest on the server it rejects with 409 (details code
 * `encryption_required`).
 */
export function generateHeldSigningKey(key: NewHeldSigningKey): Promise<SigningKey> {
  return unwrap(api.POST('/api/v1/me/signing-keys/generate', { body: key }))
}

/**
 * revokeSigningKey revokes a key the server holds (POST /api/v1/me/signing-keys/{id}/revoke):
 * its private key is destroyed; signatures made before stay valid.
 */
export function revokeSigningKey(id: string): Promise<SigningKey> {
  return unwrap(api.POST('/api/v1/me/signing-keys/{id}/revoke', { params: { path: { id } } }))
}
