// The rationale rule: a result needs a rationale of at least a minimum number of words
// (ASSESSMENT_RATIONALE_MIN_WORDS on the server, 15 unless the operator changed it). The
// editor counts as the reader types, so nobody learns of the rule only when saving.

/** DEFAULT_MIN_WORDS is the server's default minimum length of a rationale, in words. */
export const DEFAULT_MIN_WORDS = 15

/**
 * countWords counts the words of a text the way the server does (assess.RationaleWords):
 * whitespace-separated tokens holding at least one letter or digit, so "-" or "…" do not
 * pad a rationale.
 */
export function countWords(text: string): number {
  return text.split(/\s+/u).filter((token) => /[\p{L}\p{N}]/u.test(token)).length
}

/** WordCount is what the counter under a rationale shows. */
export interface WordCount {
  words: number
  min: number
  /** missing is how many words are still needed (0 when enough). */
  missing: number
  enough: boolean
}

/** wordCount measures a rationale against the minimum. */
export function wordCount(text: string, min: number = DEFAULT_MIN_WORDS): WordCount {
  const words = countWords(text)
  const missing = Math.max(0, min - words)
  return { words, min, missing, enough: missing === 0 }
}

/**
 * minimumFromError reads the minimum from a 400 too_short detail when the server names it
 * (its message carries the number), so the counter follows an operator's setting after the
 * first refusal. Anything else keeps `current`.
 */
export function minimumFromError(message: string | undefined, current: number): number {
  const match = /(\d+)/.exec(message ?? '')
  const value = match ? Number(match[1]) : NaN
  return Number.isInteger(value) && value > 0 && value <= 1000 ? value : current
}
