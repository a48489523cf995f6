// The rationale rule: a result needs a rationale of at least a minimum number of words
// (ASSESSMENT_RATIONALE_MIN_WORDS on the server; the requirement list answers it as
// rationaleMinWords, 0 for no minimum). The editor counts as the reader types, so nobody
// learns of the rule only when saving.

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

/** wordCount measures a rationale against the minimum (0: any rationale is enough). */
export function wordCount(text: string, min: number): WordCount {
  const words = countWords(text)
  const missing = Math.max(0, min - words)
  return { words, min, missing, enough: missing === 0 }
}
