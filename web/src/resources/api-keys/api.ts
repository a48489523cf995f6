import { api, unwrap } from '../../api/client'
import type { components } from '../../api/schema'

/** ApiKey is one of the signed-in user's API keys; the token itself is never listed. */
export type ApiKey = components['schemas']['APIKey']

/** ApiKeyPage is one page of API keys. */
export type ApiKeyPage = components['schemas']['PageAPIKey']

/** NewApiKey is what the create-key dialog submits. */
export type NewApiKey = components['schemas']['NewAPIKey']

/** CreatedApiKey is the answer to a creation: the key and, this once, its token. */
export type CreatedApiKey = components['schemas']['CreatedAPIKey']

/** API_KEY_PAGE_SIZE is how many keys one page lists. */
export const API_KEY_PAGE_SIZE = 50

/** ApiKeysApi lists, creates and revokes the API keys of one user. */
export interface ApiKeysApi {
  /** list lists the keys, newest first. */
  list(cursor?: string): Promise<ApiKeyPage>
  /** create creates a key (201); only this answer holds its token. */
  create(key: NewApiKey): Promise<CreatedApiKey>
  /** revoke ends a key at once (204). */
  revoke(keyId: string): Promise<void>
}

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

/** ownApiKeys are the signed-in user's keys (/api/v1/me/api-keys). */
const ownApiKeys: ApiKeysApi = { list: listApiKeys, create: createApiKey, revoke: revokeApiKey }

/** userApiKeys are the keys of the user `id` (/api/v1/users/{id}/api-keys, permission admin.settings). */
function userApiKeys(id: string): ApiKeysApi {
  return {
    list: (cursor) =>
      unwrap(
        api.GET('/api/v1/users/{id}/api-keys', {
          params: { path: { id }, query: { cursor, limit: API_KEY_PAGE_SIZE } },
        }),
      ),
    create: (key) => unwrap(api.POST('/api/v1/users/{id}/api-keys', { params: { path: { id } }, body: key })),
    revoke: async (keyId) => {
      await unwrap(api.DELETE('/api/v1/users/{id}/api-keys/{keyId}', { params: { path: { id, keyId } } }))
    },
  }
}

/**
 * apiKeysFor selects whose keys to manage: the signed-in user's own (no `userId`)
 * or, for an administrator, those of the user `userId`.
 */
export function apiKeysFor(userId?: string): ApiKeysApi {
  return userId ? userApiKeys(userId) : ownApiKeys
}
