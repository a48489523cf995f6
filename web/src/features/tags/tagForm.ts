import { DEFAULT_TAG_COLOR, normalizeTagColor } from '../../resources/tags/palette'

/** TAG_NAME_MAX_LENGTH bounds a tag's name, as the database does. */
export const TAG_NAME_MAX_LENGTH = 100

/** TAG_DESCRIPTION_MAX_LENGTH bounds a tag's description (align with the server's Validate when it lands). */
export const TAG_DESCRIPTION_MAX_LENGTH = 1000

/** TAG_FIELDS are the fields of the tag form, named as the API's JSON names them. */
export const TAG_FIELDS = ['name', 'color', 'description'] as const

/** TagField is one of TAG_FIELDS. */
export type TagField = (typeof TAG_FIELDS)[number]

/** TagDraft is what the tag form edits and submits. */
export interface TagDraft {
  name: string
  color: string
  description: string
}

/** emptyTagDraft is a new tag: no name, the default colour. */
export function emptyTagDraft(): TagDraft {
  return { name: '', color: DEFAULT_TAG_COLOR, description: '' }
}

// Lengths count characters as people see them (code points), not UTF-16 units.
function length(value: string): number {
  return [...value].length
}

/** sameTagName compares names as the server's unique index does: trimmed, case-insensitive. */
export function sameTagName(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase()
}

/**
 * tagNameProblem checks a name: present, at most TAG_NAME_MAX_LENGTH characters,
 * and not one of `taken` (other tags' names). The server has the last word.
 */
export function tagNameProblem(name: string, taken: readonly string[] = []): 'required' | 'length' | 'taken' | null {
  const trimmed = name.trim()
  if (trimmed === '') return 'required'
  if (length(trimmed) > TAG_NAME_MAX_LENGTH) return 'length'
  return taken.some((other) => sameTagName(other, trimmed)) ? 'taken' : null
}

/** tagColorProblem checks a colour: present and a hex colour (`#rgb` or `#rrggbb`). */
export function tagColorProblem(color: string): 'required' | 'invalid' | null {
  if (color.trim() === '') return 'required'
  return normalizeTagColor(color) ? null : 'invalid'
}

/** tagDescriptionProblem checks the description's length. */
export function tagDescriptionProblem(description: string): 'length' | null {
  return length(description.trim()) > TAG_DESCRIPTION_MAX_LENGTH ? 'length' : null
}

/** cleanTagDraft is the draft as it is sent: trimmed, the colour as `#rrggbb` in lower case. */
export function cleanTagDraft(draft: TagDraft): TagDraft {
  return {
    name: draft.name.trim(),
    color: normalizeTagColor(draft.color) ?? draft.color.trim(),
    description: draft.description.trim(),
  }
}
