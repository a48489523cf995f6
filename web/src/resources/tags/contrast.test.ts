import { describe, expect, it } from 'vitest'
import { contrastRatio, DARK_TEXT, LIGHT_TEXT, parseHex, readableTextColor, relativeLuminance, WCAG_AA_NORMAL } from './contrast'
import { DEFAULT_TAG_COLOR, isTagColor, normalizeTagColor, TAG_PALETTE, tagColorOrDefault } from './palette'

describe('parseHex', () => {
  it('reads #rrggbb and #rgb in any case', () => {
    expect(parseHex('#6366F1')).toEqual({ r: 0x63, g: 0x66, b: 0xf1 })
    expect(parseHex('#fa0')).toEqual({ r: 0xff, g: 0xaa, b: 0x00 })
  })

  it.each(['', 'red', '#12345', '#gggggg', '6366f1', '#6366f1ff'])('rejects %j', (value) => {
    expect(parseHex(value)).toBeNull()
  })
})

describe('WCAG arithmetic', () => {
  it('gives black and white the extreme luminance and a 21:1 contrast', () => {
    expect(relativeLuminance({ r: 0, g: 0, b: 0 })).toBe(0)
    expect(relativeLuminance({ r: 255, g: 255, b: 255 })).toBeCloseTo(1, 10)
    expect(contrastRatio({ r: 0, g: 0, b: 0 }, { r: 255, g: 255, b: 255 })).toBeCloseTo(21, 5)
    expect(contrastRatio({ r: 255, g: 255, b: 255 }, { r: 0, g: 0, b: 0 })).toBeCloseTo(21, 5)
  })

  it('matches a known pair: #777777 on white is about 4.48:1', () => {
    expect(contrastRatio(parseHex('#777777')!, parseHex('#ffffff')!)).toBeCloseTo(4.48, 2)
  })
})

describe('readableTextColor', () => {
  it.each(['#ffffff', '#fde68a', '#84cc16', '#22c55e', '#f59e0b', '#0ea5e9', '#eeeeee'])('writes dark text on light %s', (bg) => {
    expect(readableTextColor(bg)).toBe(DARK_TEXT)
  })

  it.each(['#000000', '#1e3a8a', '#4338ca', '#2563eb', '#7f1d1d', '#9333ea'])('writes light text on dark %s', (bg) => {
    expect(readableTextColor(bg)).toBe(LIGHT_TEXT)
  })

  it('answers dark text for something that is no colour', () => {
    expect(readableTextColor('nonsense')).toBe(DARK_TEXT)
  })

  it('reaches WCAG AA (4.5:1) on every preset colour', () => {
    for (const { color } of TAG_PALETTE) {
      const ratio = contrastRatio(parseHex(color)!, parseHex(readableTextColor(color))!)
      expect(ratio, color).toBeGreaterThanOrEqual(WCAG_AA_NORMAL)
    }
  })

  it('reaches WCAG AA (4.5:1) on any colour a user may choose', () => {
    // Mid-tones are where both text colours come closest to failing: #6366f1 gave 3.9:1
    // with the softer dark text this used to write and 4.46:1 with white.
    for (let i = 0; i < 4096; i++) {
      const color = `#${i.toString(16).padStart(3, '0')}`
      const ratio = contrastRatio(parseHex(color)!, parseHex(readableTextColor(color))!)
      expect(ratio, color).toBeGreaterThanOrEqual(WCAG_AA_NORMAL)
    }
    expect(readableTextColor('#6366f1')).toBe(DARK_TEXT)
  })

  it('always picks the better of the two text colours', () => {
    for (let i = 0; i < 4096; i += 7) {
      const color = `#${i.toString(16).padStart(3, '0')}`
      const bg = parseHex(color)!
      const chosen = contrastRatio(bg, parseHex(readableTextColor(color))!)
      const other = contrastRatio(bg, parseHex(readableTextColor(color) === DARK_TEXT ? LIGHT_TEXT : DARK_TEXT)!)
      expect(chosen, color).toBeGreaterThanOrEqual(other)
    }
  })
})

describe('tag colours', () => {
  it('normalises to the stored form #rrggbb in lower case', () => {
    expect(normalizeTagColor('#ABC')).toBe('#aabbcc')
    expect(normalizeTagColor(' #6366F1 ')).toBe('#6366f1')
    expect(normalizeTagColor('blue')).toBeNull()
    expect(isTagColor('#6366f1')).toBe(true)
    expect(isTagColor('#6366F1')).toBe(false)
  })

  it('falls back to the default colour', () => {
    expect(tagColorOrDefault('oops')).toBe(DEFAULT_TAG_COLOR)
    expect(tagColorOrDefault(undefined)).toBe(DEFAULT_TAG_COLOR)
    expect(tagColorOrDefault('#F00')).toBe('#ff0000')
  })
})
