import { formatDate } from '../../app/format'

/** RelativeTime is how long ago something happened, in the unit a reader takes in at a glance. */
export type RelativeTime =
  | { kind: 'justNow' }
  | { kind: 'ago'; value: number; unit: 'minute' | 'hour' | 'day' }
  | { kind: 'date' }

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const WEEK = 7 * DAY

/**
 * relativeTime says how long before `now` the timestamp `value` lies: "just now" under
 * a minute (and for a clock slightly ahead of the viewer's), then whole minutes,
 * hours and days, and from a week on the date itself.
 */
export function relativeTime(value: string | Date, now: Date): RelativeTime {
  const then = value instanceof Date ? value : new Date(value)
  const elapsed = now.getTime() - then.getTime()
  if (Number.isNaN(elapsed) || elapsed < MINUTE) return { kind: 'justNow' }
  if (elapsed < HOUR) return { kind: 'ago', value: Math.floor(elapsed / MINUTE), unit: 'minute' }
  if (elapsed < DAY) return { kind: 'ago', value: Math.floor(elapsed / HOUR), unit: 'hour' }
  if (elapsed < WEEK) return { kind: 'ago', value: Math.floor(elapsed / DAY), unit: 'day' }
  return { kind: 'date' }
}

/**
 * formatRelativeTime renders relativeTime in the viewer's language: `justNow` (the
 * translated "just now"), "5 minutes ago" / "vor 5 Minuten", or the date.
 */
export function formatRelativeTime(value: string, now: Date, locale: string, justNow: string): string {
  const relative = relativeTime(value, now)
  if (relative.kind === 'justNow') return justNow
  if (relative.kind === 'ago') {
    return new Intl.RelativeTimeFormat(locale, { numeric: 'always' }).format(-relative.value, relative.unit)
  }
  return formatDate(value, locale) ?? ''
}
