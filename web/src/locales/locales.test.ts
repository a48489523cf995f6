import { describe, expect, it } from 'vitest'
import de from './de.json'
import en from './en.json'

type Messages = { [key: string]: string | Messages }

// flatten turns nested messages into "a.b.c" → text pairs.
function flatten(messages: Messages, prefix = ''): Map<string, string> {
  const out = new Map<string, string>()
  for (const [key, value] of Object.entries(messages)) {
    const path = prefix ? `${prefix}.${key}` : key
    if (typeof value === 'string') out.set(path, value)
    else for (const [k, v] of flatten(value, path)) out.set(k, v)
  }
  return out
}

// placeholders lists the named parameters a message interpolates, e.g. {min}.
function placeholders(text: string): string[] {
  return [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? '').sort()
}

const locales = { en: flatten(en), de: flatten(de) }

describe('locale files', () => {
  it('English and German define exactly the same keys', () => {
    expect([...locales.de.keys()].sort()).toEqual([...locales.en.keys()].sort())
  })

  it('no message is empty', () => {
    for (const [locale, messages] of Object.entries(locales)) {
      const empty = [...messages].filter(([, text]) => text.trim() === '').map(([key]) => key)
      expect(empty, `${locale} has empty messages`).toEqual([])
    }
  })

  it('each translation uses the same placeholders as the English text', () => {
    for (const [key, text] of locales.en) {
      expect(placeholders(locales.de.get(key) ?? ''), key).toEqual(placeholders(text))
    }
  })
})
