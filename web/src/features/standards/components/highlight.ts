/** Segment is a piece of text, marked when it matches the search. */
export interface Segment {
  text: string
  match: boolean
}

/** highlightSegments splits `text` around every case-insensitive occurrence of `query`. */
export function highlightSegments(text: string, query: string): Segment[] {
  const needle = query.trim().toLowerCase()
  if (needle === '') return [{ text, match: false }]
  const haystack = text.toLowerCase()
  const out: Segment[] = []
  let from = 0
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, from)) {
    if (at > from) out.push({ text: text.slice(from, at), match: false })
    out.push({ text: text.slice(at, at + needle.length), match: true })
    from = at + needle.length
  }
  if (from < text.length) out.push({ text: text.slice(from), match: false })
  return out
}

/** matchesQuery tells whether a requirement's identifier, name or description contains `query`. */
export function matchesQuery(fields: { identifier: string; name: string; description: string }, query: string): boolean {
  const needle = query.trim().toLowerCase()
  if (needle === '') return true
  return (
    fields.identifier.toLowerCase().includes(needle) ||
    fields.name.toLowerCase().includes(needle) ||
    fields.description.toLowerCase().includes(needle)
  )
}
