// Natural order of identifiers, the same as the server's (assess.NaturalKey): runs of
// digits compare as numbers and letters compare without case, so V1.2.9 < V1.2.10 and
// v2 > V1. Client-side sorting that must agree with the server's lists uses it.

const DIGIT_RUN = /\d+/g
const PAD = 10

/**
 * naturalKey mirrors assess.NaturalKey: every run of digits zero-padded to 10 places
 * (leading zeros dropped first), everything lower-cased.
 */
export function naturalKey(identifier: string): string {
  return identifier.toLowerCase().replace(DIGIT_RUN, (run) => {
    const trimmed = run.replace(/^0+/, '')
    return trimmed.length < PAD ? trimmed.padStart(PAD, '0') : trimmed
  })
}

/** naturalCompare orders two identifiers naturally; equal keys fall back to the raw text. */
export function naturalCompare(a: string, b: string): number {
  const x = naturalKey(a)
  const y = naturalKey(b)
  if (x !== y) return x < y ? -1 : 1
  return a < b ? -1 : a > b ? 1 : 0
}
