import { describe, expect, it } from 'vitest'
import { sameQuery } from './queryFilters'

describe('sameQuery', () => {
  it('compares values whatever the key order, absent equal to empty', () => {
    expect(sameQuery({ a: '1', b: 'x' }, { b: 'x', a: '1' })).toBe(true)
    expect(sameQuery({ a: '1' }, { a: '1', b: undefined })).toBe(true)
    expect(sameQuery({ a: '1' }, { a: '2' })).toBe(false)
  })
})
