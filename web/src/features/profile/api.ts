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

/** ApiKey is one of the signed-in user's API keys; the token itself is never listed. */
export type ApiKey = components['schemas']['APIKey']

/** ApiKeyPage is one page of API keys. */
export type ApiKeyPage = components['schemas']['APIKeyPage']

/** NewApiKey is what the create-key dialog submits. */
export type NewApiKey = components['schemas']['NewAPIKey']

/** CreatedApiKey is the answer to a creation: the key and, this once, its token. */
export type CreatedApiKey = components['schemas']['CreatedAPIKey']

/** API_KEY_PAGE_SIZE is how many keys one page lists. */
export const API_KEY_PAGE_SIZE = 50

/** listApiKeys lists the signed-in user's keys, newest first (GET /api/v1/me/api-keys). */
export function listApiKeys(cursor?: string): Promise<ApiKeyPage> {
  return unwrap(api.GET('/api/v1/me/api-keys', { params: { query: { cursor, limit: API_KEY_PAGE_SIZE } } }))
}

/** createApiKey creates a key (POST /api/v1/me/api-keys, 201); only this answer holds its token. */
export function createApiKey(key: NewApiKey): Promise<CreatedApiKey> {
  return unwrap(api.POST('/api/v1/me/api-keys', { body: key }))
}

/** revokeApiKey ends a key at once (DELETE /api/v1/me/api-keys/{id}, 204). */
export async function revokeApiKey(id: string): Promise<void> {
  await unwrap(api.DELETE('/api/v1/me/api-keys/{id}', { params: { path: { id } } }))
}
