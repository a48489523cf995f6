// Dates as the assessment pages show them.

/** formatDay renders a YYYY-MM-DD day in the viewer's language, e.g. "1 Mar 2026"; null for anything else. */
export function formatDay(day: string | undefined | null, locale: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day ?? '')
  if (!match) return null
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])))
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(date)
}

/** userName names a user by display name, else username. */
export function userName(user: { displayName?: string; username?: string; id: string } | null | undefined): string {
  if (!user) return ''
  return user.displayName || user.username || user.id
}
