import type { Attestation, Signatory } from './types'

// How the attestation pages show dates, scores, expiry and who may sign.

/** EXPIRY_WARNING_DAYS is how close the valid-until day must be for a warning. */
export const EXPIRY_WARNING_DAYS = 30

/** formatDay renders a YYYY-MM-DD day in the viewer's language; null for anything else. */
export function formatDay(day: string | undefined | null, locale: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day ?? '')
  if (!match) return null
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])))
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(date)
}

/** formatScore shows an overall score (0–100) with at most two decimals, e.g. "87.5 %"; null as "—". */
export function formatScore(score: number | null | undefined, locale: string): string {
  if (score === null || score === undefined) return '—'
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(score)} %`
}

/** formatFraction shows a 0–1 score or confidence as a percentage, e.g. 0.5 → "50 %"; null as "—". */
export function formatFraction(value: number | null | undefined, locale: string): string {
  if (value === null || value === undefined) return '—'
  return formatScore(Math.round(value * 10000) / 100, locale)
}

/** Expiry is how the valid-until day stands: passed, within EXPIRY_WARNING_DAYS, or later. */
export type Expiry = 'expired' | 'soon' | 'valid'

/** expiryOf judges a YYYY-MM-DD valid-until day against `today` (local date); null without a day. */
export function expiryOf(validUntil: string | undefined | null, today: Date = new Date()): { state: Expiry; days: number } | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(validUntil ?? '')
  if (!match) return null
  const until = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))
  const now = Date.UTC(today.getFullYear(), today.getMonth(), today.getDate())
  const days = Math.round((until - now) / 86_400_000)
  return { state: days < 0 ? 'expired' : days <= EXPIRY_WARNING_DAYS ? 'soon' : 'valid', days }
}

/**
 * validityShown is the valid-until day the header shows: the fixed one, or for a draft the
 * one the first signature will fix (the server's projection; `projected` says which).
 */
export function validityShown(attestation: Pick<Attestation, 'state' | 'validUntil' | 'projectedValidUntil'>): { day: string | null; projected: boolean } {
  if (attestation.state === 'draft') return { day: attestation.projectedValidUntil || null, projected: true }
  return { day: attestation.validUntil || null, projected: false }
}

/** signatureCount counts the signed slots of the affirmation. */
export function signatureCount(attestation: Pick<Attestation, 'signatories'>): { signed: number; total: number } {
  const slots = attestation.signatories ?? []
  return { signed: slots.filter((slot) => slot.signedAt !== null).length, total: slots.length }
}

/** allSigned reports whether every slot is signed (and there is at least one). */
export function allSigned(attestation: Pick<Attestation, 'signatories'>): boolean {
  const { signed, total } = signatureCount(attestation)
  return total > 0 && signed === total
}

/** userName names a user by display name, else username. */
export function userName(user: { displayName?: string; username?: string; id: string } | null | undefined): string {
  if (!user) return ''
  return user.displayName || user.username || user.id
}

/**
 * maySign reports whether the viewer may sign `slot`: it is unsigned, the attestation still
 * collects signatures (a draft's first signature freezes it), the viewer holds
 * signatures.sign, and the slot is open or pinned to them.
 */
export function maySign(
  attestation: Pick<Attestation, 'state'>,
  slot: Signatory,
  viewer: { id: string; can: (key: string) => boolean },
): boolean {
  if (slot.signedAt !== null) return false
  if (attestation.state !== 'draft' && attestation.state !== 'signing') return false
  if (!viewer.can('signatures.sign')) return false
  return slot.user === null || slot.user.id === viewer.id
}

/** shortKey abbreviates a key thumbprint for tables, e.g. "kPrK_qmx…". */
export function shortKey(thumbprint: string | undefined | null): string {
  if (!thumbprint) return ''
  return thumbprint.length > 12 ? `${thumbprint.slice(0, 12)}…` : thumbprint
}
