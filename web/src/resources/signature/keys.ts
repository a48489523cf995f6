import { api, unwrap } from '../../api/client'
import type { components } from '../../api/schema'

/** HeldSigningKey is a signing key the server holds for the signed-in user. */
export type HeldSigningKey = components['schemas']['SigningKey']

/**
 * listUsableHeldKeys lists the signing keys the server holds for the signed-in user and
 * that are not revoked, newest first (GET /api/v1/me/signing-keys, permission
 * signatures.manage): the keys that can sign on the server.
 */
export async function listUsableHeldKeys(signal?: AbortSignal): Promise<HeldSigningKey[]> {
  const list = await unwrap(api.GET('/api/v1/me/signing-keys', { signal }))
  return (list.items ?? []).filter((key) => key.held && !key.revokedAt)
}
