import { beforeEach, describe, expect, it, vi } from 'vitest'
import { api, ApiError } from '../../api/client'
import { deleteSignatureImage, fetchSignatureImage, readAsBase64, saveSignatureImage } from './api'

vi.mock('../../api/client', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/client')>()
  return { ...actual, api: { GET: vi.fn(), PUT: vi.fn(), DELETE: vi.fn() } }
})

const answer = (status: number, data?: unknown, error?: unknown) =>
  Promise.resolve({ data, error, response: new Response(null, { status }) }) as never

describe('signature image calls', () => {
  const get = vi.mocked(api.GET)
  const put = vi.mocked(api.PUT)
  const del = vi.mocked(api.DELETE)

  beforeEach(() => {
    get.mockReset()
    put.mockReset().mockReturnValue(answer(204))
    del.mockReset().mockReturnValue(answer(204))
  })

  it('reads the kept image as a blob, and null when none is kept (204)', async () => {
    const png = new Blob(['png'], { type: 'image/png' })
    get.mockReturnValueOnce(answer(200, png))
    expect(await fetchSignatureImage()).toBe(png)
    expect(get).toHaveBeenCalledWith('/api/v1/me/signature-image', { parseAs: 'blob', signal: undefined })
    get.mockReturnValueOnce(answer(204)) // openapi-fetch gives no data for a 204
    expect(await fetchSignatureImage()).toBeNull()
    get.mockReturnValueOnce(answer(404, undefined, { error: 'not_found', message: 'No signature image.' }))
    expect(await fetchSignatureImage()).toBeNull() // a server from before 204
    get.mockReturnValueOnce(answer(403, undefined, { error: 'forbidden', message: 'No.' }))
    await expect(fetchSignatureImage()).rejects.toBeInstanceOf(ApiError)
  })

  it('saves with PUT {image} and removes with DELETE', async () => {
    await saveSignatureImage('iVBORw0KGgo=')
    expect(put).toHaveBeenCalledWith('/api/v1/me/signature-image', { body: { image: 'iVBORw0KGgo=' } })
    await deleteSignatureImage()
    expect(del).toHaveBeenCalledWith('/api/v1/me/signature-image')
  })

  it('reads a file as base64 without the data: prefix', async () => {
    expect(await readAsBase64(new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' }))).toBe('AQID')
  })
})
