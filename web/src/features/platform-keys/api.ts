import { api, unwrap } from '../../api/client'
import type { components } from '../../api/schema'

// The platform's signing keys (administration): the list, rotation, and the public key set
// receivers pin.

/** PlatformKey is a signing key of the platform: the public half and when it was in use. */
export type PlatformKey = components['schemas']['PlatformKey']

/** JWKS_PATH is the public key set, served without sign-in. */
export const JWKS_PATH = '/api/v1/platform-keys/jwks.json'

/** listPlatformKeys reads every platform key, newest first. */
export async function listPlatformKeys(): Promise<PlatformKey[]> {
  return (await unwrap(api.GET('/api/v1/admin/platform-keys'))).items ?? []
}

/** rotatePlatformKey retires the active key and makes a new one active. */
export function rotatePlatformKey(): Promise<PlatformKey> {
  return unwrap(api.POST('/api/v1/admin/platform-keys/rotate'))
}
