import { describe, expect, it } from 'vitest'
import { ApiError } from '../../api/errors'
import { isInvalidToken, tokenFromQuery } from './token'

describe('tokenFromQuery', () => {
  it('reads one trimmed token', () => {
    expect(tokenFromQuery('abc-DEF_123')).toBe('abc-DEF_123')
    expect(tokenFromQuery('  abc  ')).toBe('abc')
  })

  it('refuses a missing, repeated, blank, broken or oversized value', () => {
    expect(tokenFromQuery(undefined)).toBeNull()
    expect(tokenFromQuery(null)).toBeNull()
    expect(tokenFromQuery(['a', 'b'])).toBeNull()
    expect(tokenFromQuery('   ')).toBeNull()
    expect(tokenFromQuery('ab cd')).toBeNull()
    expect(tokenFromQuery('x'.repeat(201))).toBeNull()
  })
})

describe('isInvalidToken', () => {
  it('recognises the server’s verdict on a used or expired link', () => {
    const expired = new ApiError(422, 'business_rule_violation', 'The link is no longer valid.', 'r1', [
      { code: 'invalid_token', message: 'The link is no longer valid.' },
    ])
    expect(isInvalidToken(expired)).toBe(true)
    expect(isInvalidToken(new ApiError(429, 'rate_limited', 'Slow down.', 'r2'))).toBe(false)
  })
})
