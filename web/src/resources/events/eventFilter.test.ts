import { describe, expect, it } from 'vitest'
import { entriesOf, filterMatches, groupEventTypes, selectionOf, summarizeFilter } from './eventFilter'
import { catalogue } from './fixtures'

describe('groupEventTypes', () => {
  it('groups by category in catalogue order', () => {
    expect(groupEventTypes(catalogue).map((group) => [group.category, group.types.map((type) => type.type)])).toEqual([
      ['user', ['user.created', 'user.updated']],
      ['apikey', ['apikey.created', 'apikey.revoked']],
      ['channel', ['channel.webhook.created', 'channel.test']],
    ])
  })
})

describe('filterMatches', () => {
  it('matches as the server does: everything, a category, or the exact type', () => {
    expect(filterMatches(['*'], 'user.created')).toBe(true)
    expect(filterMatches(['user.*'], 'user.created')).toBe(true)
    expect(filterMatches(['channel.*'], 'channel.webhook.created')).toBe(true)
    expect(filterMatches(['user.created'], 'user.created')).toBe(true)
    expect(filterMatches(['user.created'], 'user.updated')).toBe(false)
    expect(filterMatches(['apikey.*'], 'user.created')).toBe(false)
    expect(filterMatches([], 'user.created')).toBe(false)
  })
})

describe('selectionOf', () => {
  it('reads "*" as everything', () => {
    expect(selectionOf(['*'], catalogue)).toEqual({ all: true, types: [] })
  })

  it('expands categories into their types and keeps exact types', () => {
    expect(selectionOf(['user.*', 'channel.test'], catalogue)).toEqual({
      all: false,
      types: ['user.created', 'user.updated', 'channel.test'],
    })
  })
})

describe('entriesOf', () => {
  it('writes everything as "*"', () => {
    expect(entriesOf({ all: true, types: [] }, catalogue)).toEqual(['*'])
  })

  it('writes a fully chosen category as "<category>.*" and the rest as types, sorted', () => {
    expect(entriesOf({ all: false, types: ['user.updated', 'apikey.created', 'apikey.revoked'] }, catalogue)).toEqual([
      'apikey.*',
      'user.updated',
    ])
  })

  it('writes nothing for an empty choice', () => {
    expect(entriesOf({ all: false, types: [] }, catalogue)).toEqual([])
  })

  it('round-trips with selectionOf', () => {
    for (const entries of [['*'], ['user.*'], ['apikey.revoked', 'channel.*'], ['user.created']]) {
      expect(entriesOf(selectionOf(entries, catalogue), catalogue)).toEqual(entries)
    }
  })

  it('collapses a category only when every type of the whole catalogue is chosen', () => {
    // A personal rule offers only the types the user may receive: here not apikey.revoked.
    const offered = catalogue.filter((type) => type.type !== 'apikey.revoked')
    expect(entriesOf({ all: false, types: ['apikey.created', 'user.created', 'user.updated'] }, offered, catalogue)).toEqual([
      'apikey.created',
      'user.*',
    ])
  })

  it('never writes a type the form did not offer', () => {
    const offered = catalogue.filter((type) => type.category === 'user')
    expect(entriesOf({ all: false, types: ['user.created', 'apikey.revoked'] }, offered, catalogue)).toEqual(['user.created'])
  })
})

describe('summarizeFilter', () => {
  it('is null for all events', () => {
    expect(summarizeFilter(['*'], catalogue)).toBeNull()
  })

  it('lists whole categories first, then types in catalogue order, then unknown entries', () => {
    expect(summarizeFilter(['channel.test', 'user.*', 'apikey.created', 'ghost.thing'], catalogue)).toEqual([
      { kind: 'category', category: 'user' },
      { kind: 'type', type: 'apikey.created' },
      { kind: 'type', type: 'channel.test' },
      { kind: 'type', type: 'ghost.thing' },
    ])
  })
})
