import type { ApiError } from '../../api/errors'

/** INVALID_TOKEN is the detail code of a reset link that is unknown, used or expired. */
export const INVALID_TOKEN = 'invalid_token'

/** MAX_TOKEN_LENGTH is the longest token the server accepts. */
export const MAX_TOKEN_LENGTH = 200

/**
 * tokenFromQuery reads the reset token from the page's `token` query value: a single,
 * non-blank string of acceptable length, trimmed (mail programs sometimes break or
 * pad links). Anything else, a missing or repeated value included, gives null.
 */
export function tokenFromQuery(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const token = value.trim()
  if (token === '' || token.length > MAX_TOKEN_LENGTH || /\s/.test(token)) return null
  return token
}

/** isInvalidToken reports whether a failed reset says the link no longer works. */
export function isInvalidToken(error: ApiError): boolean {
  return error.details.some((detail) => detail.code === INVALID_TOKEN) || error.error === INVALID_TOKEN
}
