import { beforeEach, describe, expect, it, vi } from 'vitest'
import { api } from '../../api/client'
import { API_KEY_PAGE_SIZE, apiKeysFor } from './api'

vi.mock('../../api/client', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/client')>()
  return { ...actual, api: { GET: vi.fn(), POST: vi.fn(), DELETE: vi.fn(), PATCH: vi.fn() } }
})

describe('apiKeysFor', () => {
  const ok = (data: unknown) => Promise.resolve({ data, response: new Response(null, { status: 200 }) })
  const get = vi.mocked(api.GET)
  const post = vi.mocked(api.POST)
  const del = vi.mocked(api.DELETE)

  beforeEach(() => {
    for (const call of [get, post, del]) {
      call.mockReset()
      call.mockImplementation((() => ok({ items: [], hasMore: false })) as never)
    }
  })

  it('manages the signed-in user’s own keys without a user id', async () => {
    const keys = apiKeysFor()
    await keys.list('c1')
    await keys.create({ name: 'CI' })
    await keys.revoke('k1')
    expect(get).toHaveBeenCalledWith('/api/v1/me/api-keys', {
      params: { query: { cursor: 'c1', limit: API_KEY_PAGE_SIZE } },
    })
    expect(post).toHaveBeenCalledWith('/api/v1/me/api-keys', { body: { name: 'CI' } })
    expect(del).toHaveBeenCalledWith('/api/v1/me/api-keys/{id}', { params: { path: { id: 'k1' } } })
  })

  it('manages the keys of the given user', async () => {
    const keys = apiKeysFor('u_42')
    await keys.list(undefined)
    await keys.create({ name: 'Import', expiresAt: '2025-12-31T22:59:59.999Z' })
    await keys.revoke('k9')
    expect(get).toHaveBeenCalledWith('/api/v1/users/{id}/api-keys', {
      params: { path: { id: 'u_42' }, query: { cursor: undefined, limit: API_KEY_PAGE_SIZE } },
    })
    expect(post).toHaveBeenCalledWith('/api/v1/users/{id}/api-keys', {
      params: { path: { id: 'u_42' } },
      body: { name: 'Import', expiresAt: '2025-12-31T22:59:59.999Z' },
    })
    expect(del).toHaveBeenCalledWith('/api/v1/users/{id}/api-keys/{keyId}', {
      params: { path: { id: 'u_42', keyId: 'k9' } },
    })
  })
})
