import type { ApiKey } from './api'

/** ApiKeyStatus is whether a key still works: active, past its expiry, or revoked. */
export type ApiKeyStatus = 'active' | 'expired' | 'revoked'

/** apiKeyStatus derives a key's status at `now`; a revoked key counts as revoked even once expired. */
export function apiKeyStatus(key: Pick<ApiKey, 'revokedAt' | 'expiresAt'>, now: Date): ApiKeyStatus {
  if (key.revokedAt) return 'revoked'
  if (key.expiresAt && new Date(key.expiresAt).getTime() <= now.getTime()) return 'expired'
  return 'active'
}

/**
 * expiryFromDate turns the day picked in the create dialog into the key's expiry:
 * the end of that day in the viewer's time zone, so a key "expiring on 31 March"
 * works all of 31 March. Null (no day picked) means the key never expires.
 */
export function expiryFromDate(day: Date | null): string | undefined {
  if (!day) return undefined
  const end = new Date(day.getFullYear(), day.getMonth(), day.getDate(), 23, 59, 59, 999)
  return end.toISOString()
}

/** isPastDay reports whether `day` is before today (the picker offers today and later). */
export function isPastDay(day: Date, now: Date): boolean {
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate())
  return day.getTime() < today.getTime()
}
