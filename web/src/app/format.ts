/**
 * formatDateTime renders an ISO 8601 timestamp as a date and time in the viewer's
 * language and time zone, e.g. "12 Mar 2025, 14:05". It returns null for a value
 * that is missing or not a date.
 */
export function formatDateTime(value: string | null | undefined, locale: string): string | null {
  if (!value) return null
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) return null
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date)
}

/** formatDate renders an ISO 8601 timestamp as a date alone, e.g. "12 Mar 2025"; null as formatDateTime. */
export function formatDate(value: string | null | undefined, locale: string): string | null {
  if (!value) return null
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) return null
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(date)
}
