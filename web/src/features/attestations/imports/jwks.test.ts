import { describe, expect, it } from 'vitest'
import { jwksProblem } from './jwks'

describe('jwksProblem', () => {
  it('accepts nothing and a key set', () => {
    expect(jwksProblem('')).toBe('')
    expect(jwksProblem('  ')).toBe('')
    expect(jwksProblem('{"keys": [{"kty": "OKP"}]}')).toBe('')
  })
  it('names what is wrong', () => {
    expect(jwksProblem('{keys')).toBe('keysNotJson')
    expect(jwksProblem('[1, 2]')).toBe('keysNoSet')
    expect(jwksProblem('{"kty": "OKP"}')).toBe('keysNoSet')
    expect(jwksProblem('null')).toBe('keysNoSet')
  })
})
