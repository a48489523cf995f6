import { api, unwrap } from '../../api/client'
import type { components } from '../../api/schema'

/** HeldSigningKey is a signing key the server holds for the signed-in user. */
export type HeldSigningKey = components['schemas']['SigningKey']

/** HeldKeys are the keys that can sign on the server, and whether it can hold one at all. */
export interface HeldKeys {
  /** usable are the held keys that are not revoked, newest first. */
  usable: HeldSigningKey[]
  /** available is false when the server cannot hold a key (no encryption at rest), so none can be generated. */
  available: boolean
}

/**
 * fetchHeldKeys reads the signing keys the server holds for the signed-in user and that
 * are not revoked, newest first (GET /api/v1/me/signing-keys, permission
 * signatures.manage): the keys that can sign on the server.
 */
export async function fetchHeldKeys(signal?: AbortSignal): Promise<HeldKeys> {
  const list = await unwrap(api.GET('/api/v1/me/signing-keys', { signal }))
  return { usable: (list.items ?? []).filter((key) => key.held && !key.revokedAt), available: list.heldKeysAvailable }
}
