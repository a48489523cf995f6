// How the assessment pages show days and scores.

/** formatDay renders a YYYY-MM-DD day in the viewer's language, e.g. "1 Mar 2026"; null for anything else. */
export function formatDay(day: string | undefined | null, locale: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day ?? '')
  if (!match) return null
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])))
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(date)
}

/** formatScore shows a conformance score with at most two decimals, e.g. "87.5 %"; null shows as "—". */
export function formatScore(score: number | null | undefined, locale: string): string {
  if (score === null || score === undefined) return '—'
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(score)} %`
}
