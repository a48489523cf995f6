import { describe, expect, it } from 'vitest'
import { ApiError } from '../api/errors'
import { placeFieldErrors } from './fieldErrors'

describe('placeFieldErrors', () => {
  it('puts each detail on its field, with or without the body. prefix', () => {
    const error = new ApiError(400, 'validation_failed', 'Invalid.', 'r1', [
      { field: 'body.email', code: 'invalid', message: 'Not an address.' },
      { field: 'username', code: 'taken', message: 'Taken.' },
    ])
    expect(placeFieldErrors(error, ['username', 'email'] as const)).toEqual({
      fields: { username: 'Taken.', email: 'Not an address.' },
      unplaced: false,
    })
  })

  it('reports what no field shows', () => {
    const withOther = new ApiError(400, 'validation_failed', 'Invalid.', 'r1', [{ field: 'other', message: 'Hm.' }])
    expect(placeFieldErrors(withOther, ['email'] as const).unplaced).toBe(true)
    const plain = new ApiError(409, 'conflict', 'Taken.', 'r2')
    expect(placeFieldErrors(plain, ['email'] as const)).toEqual({ fields: { email: '' }, unplaced: true })
  })
})
