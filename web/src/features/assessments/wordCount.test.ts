import { describe, expect, it } from 'vitest'
import { countWords, wordCount } from './wordCount'

describe('countWords', () => {
  it.each([
    ['', 0],
    ['   \n\t ', 0],
    ['one', 1],
    ['  two  words ', 2],
    ['line\nbreaks\tand\u00a0nbsp count', 5],
    ['Überprüfung der Konfiguration – erledigt.', 4],
    ['- … -- ok', 1],
    ['v1.2 3', 2],
  ])('counts %j as %i words', (text, words) => {
    expect(countWords(text)).toBe(words)
  })
})

describe('wordCount', () => {
  it('says how many words are missing against the minimum', () => {
    expect(wordCount('a b c', 15)).toEqual({ words: 3, min: 15, missing: 12, enough: false })
  })
  it('finds any rationale enough without a minimum', () => {
    expect(wordCount('', 0)).toEqual({ words: 0, min: 0, missing: 0, enough: true })
  })
  it('is enough at exactly the minimum and beyond', () => {
    expect(wordCount('a b c', 3).enough).toBe(true)
    expect(wordCount('a b c d', 3)).toEqual({ words: 4, min: 3, missing: 0, enough: true })
  })
})
