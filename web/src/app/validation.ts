/** USERNAME_MIN_LENGTH and USERNAME_MAX_LENGTH bound a username, as the server does. */
export const USERNAME_MIN_LENGTH = 3
export const USERNAME_MAX_LENGTH = 64

/** FieldProblem names what is wrong with a field value, or null when nothing is. */
export type FieldProblem =
  | 'required'
  | 'length'
  | 'invalid'
  | 'tooShort'
  | 'mismatch'
  | null

// Lengths count characters as people see them (code points), not UTF-16 units.
function length(value: string): number {
  return [...value].length
}

/** usernameProblem checks a username: present and 3–64 characters after trimming. */
export function usernameProblem(value: string): FieldProblem {
  const trimmed = value.trim()
  if (trimmed === '') return 'required'
  const n = length(trimmed)
  return n < USERNAME_MIN_LENGTH || n > USERNAME_MAX_LENGTH ? 'length' : null
}

// Deliberately loose: one @, something on either side, no spaces. The server is
// the authority on what it accepts; this only catches obvious typos early.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/

/** emailProblem checks that an e-mail address is present and plausibly shaped. */
export function emailProblem(value: string): FieldProblem {
  const trimmed = value.trim()
  if (trimmed === '') return 'required'
  return EMAIL_PATTERN.test(trimmed) ? null : 'invalid'
}

/** requiredProblem checks that a free-text value is not blank. */
export function requiredProblem(value: string): FieldProblem {
  return value.trim() === '' ? 'required' : null
}

/** passwordProblem checks a new password against the server's minimum length. */
export function passwordProblem(value: string, minLength: number): FieldProblem {
  if (value === '') return 'required'
  return length(value) < minLength ? 'tooShort' : null
}

/** confirmationProblem checks that the repeated password matches the first one. */
export function confirmationProblem(password: string, confirmation: string): FieldProblem {
  if (confirmation === '') return 'required'
  return confirmation === password ? null : 'mismatch'
}
