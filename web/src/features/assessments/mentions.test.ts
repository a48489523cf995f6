import { describe, expect, it } from 'vitest'
import { ada, bob } from './fixtures'
import { filterMentionable, insertMention, mentionAt, noteSegments } from './mentions'

describe('mentionAt', () => {
  it('finds the mention being typed at the caret', () => {
    expect(mentionAt('@', 1)).toEqual({ start: 0, query: '' })
    expect(mentionAt('hi @ad', 6)).toEqual({ start: 3, query: 'ad' })
    expect(mentionAt('hi (@bob.b', 10)).toEqual({ start: 4, query: 'bob.b' })
    expect(mentionAt('hi @ada and more', 6)).toEqual({ start: 3, query: 'ad' })
  })
  it('ignores e-mail addresses and text without an @', () => {
    expect(mentionAt('mail ada@example.com', 12)).toBeNull()
    expect(mentionAt('plain text', 5)).toBeNull()
    expect(mentionAt('@ada done', 9)).toBeNull()
  })
})

describe('insertMention', () => {
  it('replaces the typed part, the rest of the word included, and moves the caret after it', () => {
    const text = 'ask @a please'
    const caret = 6
    expect(insertMention(text, mentionAt(text, caret)!, caret, 'ada')).toEqual({ text: 'ask @ada please', caret: 9 })
    expect(insertMention('@bo', { start: 0, query: 'bo' }, 3, 'bob.b')).toEqual({ text: '@bob.b ', caret: 7 })
  })
})

describe('filterMentionable', () => {
  it('matches the username or a word of the display name by prefix, case-insensitively', () => {
    expect(filterMentionable([ada, bob], 'B')).toEqual([bob])
    expect(filterMentionable([ada, bob], 'love')).toEqual([ada])
    expect(filterMentionable([ada, bob], '')).toEqual([ada, bob])
  })
})

describe('noteSegments', () => {
  it('highlights only the mentions the server recognised, case-insensitively, sentence marks excluded', () => {
    expect(noteSegments('Ask @ADA and @nobody, then @bob.b.', [ada, bob])).toEqual([
      { text: 'Ask ' },
      { text: '@ADA', user: ada },
      { text: ' and @nobody, then ' },
      { text: '@bob.b', user: bob },
      { text: '.' },
    ])
  })
  it('keeps the note whole when nobody was mentioned, and leaves e-mail addresses alone', () => {
    expect(noteSegments('<b>hi</b>', null)).toEqual([{ text: '<b>hi</b>' }])
    expect(noteSegments('x@ada.com', [ada])).toEqual([{ text: 'x@ada.com' }])
  })
})
