import { describe, expect, it } from 'vitest'
import { naturalCompare, naturalKey } from './natural'

describe('naturalCompare', () => {
  it.each([
    ['V1.2.9', 'V1.2.10'],
    ['V1.2', 'V1.2.1'],
    ['V2', 'V10'],
    ['V1.10', 'V2.1'],
    ['A.9', 'A.10'],
    ['v1', 'V2'],
    ['AC-2', 'AC-10'],
    ['AC-2', 'AC-2(1)'],
    ['x', 'x1'],
    ['a-', 'a1'], // as the server's key: '-' sorts before the digits
    ['1', 'a'],
    ['V007', 'V8'],
  ])('%s < %s', (a, b) => {
    expect(naturalCompare(a, b)).toBeLessThan(0)
    expect(naturalCompare(b, a)).toBeGreaterThan(0)
  })

  it('treats equal text as equal, and orders case or zero variants stably', () => {
    expect(naturalCompare('V1.2', 'V1.2')).toBe(0)
    expect(naturalCompare('V1', 'v1')).not.toBe(0)
    expect(naturalCompare('V01', 'V1')).toBe(-naturalCompare('V1', 'V01'))
  })

  it('sorts a list the way people read it', () => {
    const ids = ['V1.10', 'V1.2', 'V10.1', 'V1.1', 'V2.1', 'v1.3']
    expect([...ids].sort(naturalCompare)).toEqual(['V1.1', 'V1.2', 'v1.3', 'V1.10', 'V2.1', 'V10.1'])
  })
})

describe('naturalKey', () => {
  it('mirrors assess.NaturalKey', () => {
    expect(naturalKey('V1.2.10')).toBe('v0000000001.0000000002.0000000010')
    expect(naturalKey('A007')).toBe('a0000000007')
    expect(naturalKey('x12345678901')).toBe('x12345678901')
  })
})
