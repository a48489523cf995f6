import { describe, expect, it } from 'vitest'
import de from '../../locales/de.json'
import en from '../../locales/en.json'
import { describeEntry, TIMELINE_ACTIONS, type TimelineEntry } from './timeline'

// The server's change catalogue (pkg/assess: Change{"<area>.<verb>", …}) is the one list of
// the audit actions it records. Every action of the areas recorded under an assessment (with
// the assessment as its scope, so on its timeline and the dashboard's recent activity) must
// read as a sentence in every language, never as a code.
// The Go sources are read from the repository with Node's fs (outside Vite's module graph,
// which refuses files beyond web/); the name is built so the web build's types need no Node.
interface GoFiles {
  readdirSync(dir: string): string[]
  readFileSync(file: string, encoding: 'utf8'): string
}
const fs = (await import(/* @vite-ignore */ ['node', 'fs'].join(':'))) as GoFiles
const here = import.meta.url
const catalogue = decodeURIComponent(new URL(here).pathname).replace(/\/web\/src\/resources\/assessments\/[^/]+$/, '/pkg/assess/')
const TIMELINE_AREAS = ['assessment', 'evidence', 'claim', 'attestation', 'affirmation']

function serverActions(): string[] {
  const actions = new Set<string>()
  for (const file of fs.readdirSync(catalogue)) {
    if (!file.endsWith('.go') || file.endsWith('_test.go')) continue
    const source = fs.readFileSync(catalogue + file, 'utf8')
    for (const match of source.matchAll(/Change\{"([a-z_]+)\.([a-z_]+)"/g)) {
      if (TIMELINE_AREAS.includes(match[1] ?? '')) actions.add(`${match[1]}.${match[2]}`)
    }
  }
  return [...actions].sort()
}

function lookup(messages: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), messages)
}

const entry = (action: string, details: Record<string, unknown> = {}): TimelineEntry => ({
  id: 1, occurredAt: '2026-01-01T00:00:00Z', actor: { id: 'us_1', username: 'ada', displayName: 'Ada' },
  action, targetType: 'attestation', targetId: 'at_1', targetName: 'Payments review', targetLink: '', details,
})

describe('the timeline’s sentences', () => {
  const actions = serverActions()

  it('reads the server’s change catalogue', () => {
    // Guards the glob: an empty list would let every check below pass.
    expect(actions).toContain('attestation.created')
    expect(actions).toContain('affirmation.sealed')
    expect(actions.length).toBeGreaterThan(30)
  })

  it.each(actions)('has a sentence for %s in English and German', (action) => {
    expect(TIMELINE_ACTIONS).toContain(action)
    const keys = [describeEntry(entry(action)).key]
    if (action === 'evidence.linked' || action === 'evidence.unlinked') keys.push(describeEntry(entry(action, { requirement: 'V1.2.3' })).key)
    for (const key of keys) {
      expect(typeof lookup(en, key), `${key} in en.json`).toBe('string')
      expect(typeof lookup(de, key), `${key} in de.json`).toBe('string')
    }
  })

  it('has a sentence in English and German for every action it lists', () => {
    for (const action of TIMELINE_ACTIONS) {
      const key = describeEntry(entry(action)).key
      expect(typeof lookup(en, key), `${key} in en.json`).toBe('string')
      expect(typeof lookup(de, key), `${key} in de.json`).toBe('string')
    }
  })
})
