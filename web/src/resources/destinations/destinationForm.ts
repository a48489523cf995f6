/** NAME_MAX_LENGTH and URL_MAX_LENGTH are the server's limits for a webhook or chat destination. */
export const NAME_MAX_LENGTH = 200
export const URL_MAX_LENGTH = 2000

/** UrlProblem names what is wrong with a destination URL. */
export type UrlProblem = 'required' | 'invalid' | 'scheme' | 'credentials' | null

/**
 * urlProblem checks a destination URL the way the server starts to: present, an
 * absolute http(s) URL with a host and without user:password. Whether the address
 * may be reached (private networks, plain http) only the server can tell.
 */
export function urlProblem(value: string): UrlProblem {
  const trimmed = value.trim()
  if (trimmed === '') return 'required'
  let parsed: URL
  try {
    parsed = new URL(trimmed)
  } catch {
    return 'invalid'
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'scheme'
  if (parsed.hostname === '') return 'invalid'
  if (parsed.username !== '' || parsed.password !== '') return 'credentials'
  return null
}

/** sameEntries compares two lists of entries (event filters, ids, roles) regardless of order and repeats. */
export function sameEntries(a: readonly string[], b: readonly string[]): boolean {
  const left = [...new Set(a)].sort()
  const right = [...new Set(b)].sort()
  return left.length === right.length && left.every((entry, index) => entry === right[index])
}
