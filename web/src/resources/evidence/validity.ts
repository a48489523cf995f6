import type { EvidenceState } from './types'

// How long a piece of evidence stays valid, from its valid-until date (the last valid day)
// in the viewer's time zone.

/** MS_PER_DAY is one day in milliseconds. */
const MS_PER_DAY = 86_400_000

function dayNumber(day: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
  if (!match) return null
  return Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / MS_PER_DAY
}

/** localToday is today's date in the viewer's time zone as YYYY-MM-DD. */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`
}

/** Validity is how a valid-until date stands: days left (0 = last day today), or expired. */
export type Validity = { kind: 'none' } | { kind: 'valid'; days: number } | { kind: 'expired'; days: number }

/** EXPIRY_WARNING_DAYS is how close an end of validity turns the marker into a warning. */
export const EXPIRY_WARNING_DAYS = 14

/**
 * validity tells how many days are left until `validUntil` (the last valid day), or how
 * many days ago it ended. Evidence in state expired counts as expired whatever the date.
 */
export function validity(validUntil: string | undefined, state: EvidenceState, today = localToday()): Validity {
  const end = validUntil ? dayNumber(validUntil) : null
  const now = dayNumber(today)
  if (end === null || now === null) return state === 'expired' ? { kind: 'expired', days: 0 } : { kind: 'none' }
  const days = end - now
  if (days < 0 || state === 'expired') return { kind: 'expired', days: Math.max(0, -days) }
  return { kind: 'valid', days }
}
