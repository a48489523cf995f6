import { beforeEach, describe, expect, it, vi } from 'vitest'
import { api } from '../../api/client'
import { fetchHeldKeys } from './keys'

vi.mock('../../api/client', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/client')>()
  return { ...actual, api: { GET: vi.fn() } }
})

const answer = (status: number, data?: unknown) => Promise.resolve({ data, response: new Response(null, { status }) }) as never
const key = (id: string, held: boolean, revokedAt: string | null) => ({
  id,
  label: id,
  algorithm: 'Ed25519',
  keyId: `thumb-${id}`,
  publicKey: { kty: 'OKP', crv: 'Ed25519', x: 'x' },
  createdAt: '2026-04-01T08:00:00Z',
  held,
  revokedAt,
})

describe('keys held by the service', () => {
  beforeEach(() => vi.mocked(api.GET).mockReset())

  it('offers only the held keys that are not revoked', async () => {
    vi.mocked(api.GET).mockReturnValueOnce(
      answer(200, { items: [key('uk_1', true, null), key('uk_2', true, '2026-04-02T00:00:00Z'), key('uk_3', false, null)], heldKeysAvailable: true }),
    )
    const held = await fetchHeldKeys()
    expect(held.usable.map((k) => k.id)).toEqual(['uk_1'])
    expect(held.available).toBe(true)
    expect(api.GET).toHaveBeenCalledWith('/api/v1/me/signing-keys', { signal: undefined })
  })

  it('says when the server cannot hold a key', async () => {
    vi.mocked(api.GET).mockReturnValueOnce(answer(200, { items: [], heldKeysAvailable: false }))
    expect(await fetchHeldKeys()).toEqual({ usable: [], available: false })
  })
})
