import { describe, expect, it } from 'vitest'
import { unwrap } from './client'
import { ApiError, NETWORK_ERROR, UNEXPECTED_RESPONSE, toApiError } from './errors'

function response(status: number, headers: Record<string, string> = {}): Response {
  return new Response(null, { status, headers })
}

describe('toApiError', () => {
  it('keeps every field of the error envelope', () => {
    const error = toApiError(response(400), {
      error: 'validation_failed',
      message: 'The request is invalid.',
      requestId: 'req-123',
      details: [{ field: 'password', code: 'too_short', message: 'Too short.' }, 'junk'],
    })
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({
      status: 400,
      error: 'validation_failed',
      message: 'The request is invalid.',
      requestId: 'req-123',
      details: [{ field: 'password', code: 'too_short', message: 'Too short.' }],
      fromServer: true,
    })
  })

  it('takes the request id from X-Request-Id when the body has none', () => {
    const error = toApiError(response(503, { 'X-Request-Id': 'hdr-9' }), {
      error: 'setup_required',
      message: 'Open /setup.',
    })
    expect(error.requestId).toBe('hdr-9')
    expect(error.details).toEqual([])
  })

  it('marks a body that is not an envelope as unexpected, keeping any message', () => {
    const html = toApiError(response(502), '<html>Bad gateway</html>')
    expect(html).toMatchObject({ status: 502, error: UNEXPECTED_RESPONSE, message: '', fromServer: false })

    const health = toApiError(response(503), { status: 'error', database: 'error', message: 'db down' })
    expect(health).toMatchObject({ status: 503, error: UNEXPECTED_RESPONSE, message: 'db down' })
  })
})

describe('unwrap', () => {
  it('returns the data of a successful call', async () => {
    await expect(unwrap(Promise.resolve({ data: { ok: true }, response: response(200) }))).resolves.toEqual({ ok: true })
  })

  it('throws an ApiError for a non-2xx answer', async () => {
    const call = Promise.resolve({
      error: { error: 'not_found', message: 'No such route.', requestId: 'r1' },
      response: response(404),
    })
    await expect(unwrap(call)).rejects.toMatchObject({ status: 404, error: 'not_found', message: 'No such route.' })
  })

  it('throws a network ApiError when no answer arrived', async () => {
    await expect(unwrap(Promise.reject(new TypeError('Failed to fetch')))).rejects.toMatchObject({
      status: 0,
      error: NETWORK_ERROR,
    })
  })
})
