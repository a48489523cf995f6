// Colour arithmetic for tags: parse a hex colour, compute WCAG 2 relative luminance
// and contrast, and pick the text colour that reads best on a tag's background.

/** Rgb is a colour's red, green and blue channels, 0–255. */
export interface Rgb {
  r: number
  g: number
  b: number
}

/**
 * DARK_TEXT and LIGHT_TEXT are the two text colours a tag can be written in. Black and
 * white, because only they reach 4.5:1 on every background, one or the other (at worst
 * about 4.58:1, on a background of relative luminance 0.18); a softer dark text left
 * mid-tones such as #6366f1 below it with both (3.9 and 4.46:1).
 */
export const DARK_TEXT = '#000000'
export const LIGHT_TEXT = '#ffffff'

/** WCAG_AA_NORMAL is the minimum contrast ratio WCAG 2 AA asks of normal-size text. */
export const WCAG_AA_NORMAL = 4.5

/** parseHex reads `#rgb` or `#rrggbb` (any case); anything else is null. */
export function parseHex(color: string): Rgb | null {
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim())
  if (!match) return null
  let hex = match[1] as string
  if (hex.length === 3) hex = [...hex].map((c) => c + c).join('')
  const value = Number.parseInt(hex, 16)
  return { r: (value >> 16) & 0xff, g: (value >> 8) & 0xff, b: value & 0xff }
}

// channel linearises one sRGB channel (WCAG 2.x definition).
function channel(value: number): number {
  const c = value / 255
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
}

/** relativeLuminance is WCAG's relative luminance of a colour: 0 for black, 1 for white. */
export function relativeLuminance({ r, g, b }: Rgb): number {
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
}

/** contrastRatio is WCAG's contrast ratio between two colours, from 1 (none) to 21 (black on white). */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number]
  return (light + 0.05) / (dark + 0.05)
}

/**
 * readableTextColor answers DARK_TEXT or LIGHT_TEXT, whichever contrasts more with
 * the background (an unparsable colour gets DARK_TEXT). Between two equal choices
 * it prefers dark text.
 */
export function readableTextColor(background: string): string {
  const bg = parseHex(background)
  if (!bg) return DARK_TEXT
  const dark = contrastRatio(bg, parseHex(DARK_TEXT) as Rgb)
  const light = contrastRatio(bg, parseHex(LIGHT_TEXT) as Rgb)
  return dark >= light ? DARK_TEXT : LIGHT_TEXT
}
