import { parseHex } from './contrast'

/** DEFAULT_TAG_COLOR is a new tag's colour in the form, the first preset. */
export const DEFAULT_TAG_COLOR = '#4f46e5'

/** TagColorName names a preset colour; its label is translated (tags.colors.<name>). */
export type TagColorName =
  | 'indigo'
  | 'blue'
  | 'cyan'
  | 'teal'
  | 'green'
  | 'amber'
  | 'orange'
  | 'red'
  | 'pink'
  | 'purple'
  | 'violet'
  | 'slate'

/**
 * TAG_PALETTE is the preset colours offered for tags; any other `#rrggbb` is allowed
 * too. They are the server's palette (assess.TagPalette, from which a tag created
 * without a colour gets one), and each reaches WCAG AA (4.5:1) with the text colour
 * TagChip picks for it.
 */
export const TAG_PALETTE: readonly { name: TagColorName; color: string }[] = [
  { name: 'indigo', color: '#4f46e5' },
  { name: 'blue', color: '#2563eb' },
  { name: 'cyan', color: '#0891b2' },
  { name: 'teal', color: '#0d9488' },
  { name: 'green', color: '#16a34a' },
  { name: 'amber', color: '#ca8a04' },
  { name: 'orange', color: '#ea580c' },
  { name: 'red', color: '#dc2626' },
  { name: 'pink', color: '#db2777' },
  { name: 'purple', color: '#9333ea' },
  { name: 'violet', color: '#7c3aed' },
  { name: 'slate', color: '#475569' },
]

const TAG_COLOR_PATTERN = /^#[0-9a-f]{6}$/

/** isTagColor reports whether color is what the server stores: `#rrggbb` in lower case. */
export function isTagColor(color: string): boolean {
  return TAG_COLOR_PATTERN.test(color)
}

/** normalizeTagColor turns `#ABC` or `#AABBCC` into the stored form `#aabbcc`; null when it is no colour. */
export function normalizeTagColor(color: string): string | null {
  const rgb = parseHex(color)
  if (!rgb) return null
  return `#${[rgb.r, rgb.g, rgb.b].map((v) => v.toString(16).padStart(2, '0')).join('')}`
}

/** tagColorOrDefault is the colour to paint a tag with: its own when valid, else the default. */
export function tagColorOrDefault(color: string | null | undefined): string {
  return (color && normalizeTagColor(color)) || DEFAULT_TAG_COLOR
}
