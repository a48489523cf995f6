import { beforeEach, describe, expect, it, vi } from 'vitest'
import { api } from '../../api/client'
import { CLAIM_FETCH_ALL_PAGE_SIZE, CLAIM_PAGE_SIZE, listAllClaims, listClaims } from './api'
import { aClaim } from './fixtures'

vi.mock('../../api/client', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/client')>()
  return { ...actual, api: { GET: vi.fn(), POST: vi.fn(), DELETE: vi.fn(), PATCH: vi.fn() } }
})

describe('the claims list', () => {
  const ok = (data: unknown) => Promise.resolve({ data, response: new Response(null, { status: 200 }) })
  const get = vi.mocked(api.GET)

  beforeEach(() => {
    get.mockReset()
  })

  it('reads one page after the cursor, with the requirement filter', async () => {
    get.mockImplementation((() => ok({ items: [aClaim()], nextCursor: 'c2', hasMore: true })) as never)
    const page = await listClaims('as_1', 'c1', { requirement: 'ar_1' })
    expect(page.hasMore).toBe(true)
    expect(page.nextCursor).toBe('c2')
    expect(get).toHaveBeenCalledWith('/api/v1/assessments/{id}/claims', {
      params: { path: { id: 'as_1' }, query: { limit: CLAIM_PAGE_SIZE, cursor: 'c1', requirement: 'ar_1' } },
    })
  })

  it('reads every claim page after page, the largest pages the server gives', async () => {
    const first = Array.from({ length: CLAIM_FETCH_ALL_PAGE_SIZE }, (_, i) => aClaim({ id: `cl_${i}` }))
    get
      .mockImplementationOnce((() => ok({ items: first, nextCursor: 'c2', hasMore: true })) as never)
      .mockImplementationOnce((() => ok({ items: [aClaim({ id: 'cl_last' })], hasMore: false })) as never)
    const claims = await listAllClaims('as_1')
    expect(claims).toHaveLength(CLAIM_FETCH_ALL_PAGE_SIZE + 1)
    expect(claims.at(-1)?.id).toBe('cl_last')
    expect(get).toHaveBeenNthCalledWith(1, '/api/v1/assessments/{id}/claims', {
      params: { path: { id: 'as_1' }, query: { limit: CLAIM_FETCH_ALL_PAGE_SIZE } },
    })
    expect(get).toHaveBeenNthCalledWith(2, '/api/v1/assessments/{id}/claims', {
      params: { path: { id: 'as_1' }, query: { limit: CLAIM_FETCH_ALL_PAGE_SIZE, cursor: 'c2' } },
    })
  })
})
