import type { UserRef } from './types'

// @username mentions in work notes: finding the mention being typed (for the
// autocomplete), putting a chosen username in its place, and cutting a note into text
// and mentions for display. A username is letters, digits and `._-`, matched without
// regard to case, as the server matches them.

const NAME_CHAR = /[\p{L}\p{N}._-]/u

/** MentionQuery is the mention being typed: where its `@` is and the text after it. */
export interface MentionQuery {
  /** start is the index of the `@`. */
  start: number
  query: string
}

/**
 * mentionAt finds the mention the caret is in: an `@` at the start of the text or after
 * whitespace or an opening bracket, followed by username characters up to the caret.
 * Null when the caret is not in one (an e-mail address is not a mention).
 */
export function mentionAt(text: string, caret: number): MentionQuery | null {
  let i = Math.min(caret, text.length)
  while (i > 0 && NAME_CHAR.test(text[i - 1]!)) i--
  if (i === 0 || text[i - 1] !== '@') return null
  const at = i - 1
  if (at > 0 && !/[\s([{"'“„]/u.test(text[at - 1]!)) return null
  const query = text.slice(i, caret)
  return query.length > 64 ? null : { start: at, query }
}

/** insertMention replaces the mention being typed with `@username ` and returns the new text and caret. */
export function insertMention(text: string, mention: MentionQuery, caret: number, username: string): { text: string; caret: number } {
  let end = caret
  while (end < text.length && NAME_CHAR.test(text[end]!)) end++
  const inserted = `@${username} `
  const after = text.slice(end).replace(/^ /, '')
  return { text: text.slice(0, mention.start) + inserted + after, caret: mention.start + inserted.length }
}

/** filterMentionable keeps the users whose username or display name starts with the query (case-insensitive). */
export function filterMentionable(users: readonly UserRef[], query: string, limit = 8): UserRef[] {
  const q = query.toLocaleLowerCase()
  const starts = (value: string) => value.toLocaleLowerCase().startsWith(q)
  const words = (value: string) => value.toLocaleLowerCase().split(/\s+/u).some((word) => word.startsWith(q))
  return users.filter((user) => starts(user.username) || words(user.displayName)).slice(0, limit)
}

/** NoteSegment is a piece of a note: plain text or a mention of a user. */
export type NoteSegment = { text: string; user?: UserRef }

/**
 * noteSegments cuts a note into text and the mentions the server recognised (`mentions`),
 * so only those are highlighted; an @word that named nobody stays plain text. The pieces
 * are rendered as text nodes, never as HTML.
 */
export function noteSegments(content: string, mentions: readonly UserRef[] | null): NoteSegment[] {
  const byName = new Map((mentions ?? []).map((user) => [user.username.toLocaleLowerCase(), user]))
  if (byName.size === 0) return [{ text: content }]
  const segments: NoteSegment[] = []
  const pattern = /@([\p{L}\p{N}._-]+)/gu
  let last = 0
  for (const match of content.matchAll(pattern)) {
    const start = match.index
    if (start > 0 && NAME_CHAR.test(content[start - 1]!)) continue
    let name = match[1]!
    // A sentence may end right after a mention: "ask @ada." names ada.
    while (!byName.has(name.toLocaleLowerCase()) && /[._-]$/.test(name)) name = name.slice(0, -1)
    const user = byName.get(name.toLocaleLowerCase())
    if (!user) continue
    if (start > last) segments.push({ text: content.slice(last, start) })
    segments.push({ text: `@${name}`, user })
    last = start + 1 + name.length
  }
  if (last < content.length) segments.push({ text: content.slice(last) })
  return segments
}
