import { describe, expect, it } from 'vitest'
import { ApiError } from '../../api/client'
import { importFailure } from './importResult'

describe('importFailure', () => {
  it('turns a refused document into errors by JSON path', () => {
    const error = new ApiError(422, 'business_rule_violation', 'The document is invalid.', 'req', [
      { field: '/definitions/standards/0/name', code: 'schema_invalid', message: 'missing property' },
      { code: 'invalid_json', message: 'unexpected end at byte 12' },
    ])
    const failure = importFailure(error)
    expect(failure.kind).toBe('document')
    expect(failure.kind === 'document' && failure.errors).toEqual([
      { path: '/definitions/standards/0/name', message: 'missing property (schema_invalid)' },
      { path: '', message: 'unexpected end at byte 12 (invalid_json)' },
    ])
  })

  it('keeps any other failure, such as an unreachable URL without details, for an alert', () => {
    const error = new ApiError(413, 'payload_too_large', 'Too large.', 'req')
    expect(importFailure(error)).toEqual({ kind: 'call', error })
    expect(importFailure(new TypeError('offline')).kind).toBe('call')
  })
})
