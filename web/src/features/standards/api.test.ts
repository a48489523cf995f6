import { beforeEach, describe, expect, it, vi } from 'vitest'
import { api } from '../../api/client'
import {
  exportCsvUrl,
  exportUrl,
  importFile,
  listStandards,
  listVersions,
  moveRequirement,
  retireStandard,
  updateLevel,
} from './api'
import { emptyFilters, STANDARD_PAGE_SIZE, VERSIONS_PAGE_SIZE } from './filters'

vi.mock('../../api/client', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/client')>()
  return { ...actual, api: { GET: vi.fn(), POST: vi.fn(), DELETE: vi.fn(), PATCH: vi.fn() } }
})

describe('the standards API calls', () => {
  const ok = (data: unknown) => Promise.resolve({ data, response: new Response(null, { status: 200 }) })
  const get = vi.mocked(api.GET)
  const post = vi.mocked(api.POST)
  const patch = vi.mocked(api.PATCH)

  beforeEach(() => {
    for (const call of [get, post, patch]) {
      call.mockReset()
      call.mockImplementation((() => ok({ items: [], hasMore: false })) as never)
    }
  })

  it('lists standards with the filters as the query', async () => {
    await listStandards({ ...emptyFilters(), state: 'published', q: ' asvs ' }, 'next')
    expect(get).toHaveBeenCalledWith('/api/v1/standards', {
      params: { query: { q: 'asvs', state: 'published', cursor: 'next', limit: STANDARD_PAGE_SIZE } },
    })
  })

  it('pages the versions of a standard', async () => {
    await listVersions('st_1')
    expect(get).toHaveBeenCalledWith('/api/v1/standards/{id}/versions', { params: { path: { id: 'st_1' }, query: { limit: VERSIONS_PAGE_SIZE } } })
  })

  it('retires with force only when asked', async () => {
    await retireStandard('st_1')
    await retireStandard('st_1', true)
    expect(post).toHaveBeenNthCalledWith(1, '/api/v1/standards/{id}/retire', { params: { path: { id: 'st_1' } }, body: {} })
    expect(post).toHaveBeenNthCalledWith(2, '/api/v1/standards/{id}/retire', { params: { path: { id: 'st_1' } }, body: { force: true } })
  })

  it('moves a requirement to the top level with a null parent', async () => {
    await moveRequirement('st_1', 'rq_1', null, 2)
    expect(post).toHaveBeenCalledWith('/api/v1/standards/{id}/requirements/{requirementId}/move', {
      params: { path: { id: 'st_1', requirementId: 'rq_1' } },
      body: { parentId: null, position: 2 },
    })
  })

  it('sends a level’s full member set with its version', async () => {
    await updateLevel('st_1', 'lv_1', { version: 3, requirementIds: ['rq_1'] })
    expect(patch).toHaveBeenCalledWith('/api/v1/standards/{id}/levels/{levelId}', {
      params: { path: { id: 'st_1', levelId: 'lv_1' } },
      body: { version: 3, requirementIds: ['rq_1'] },
    })
  })

  it('uploads a document as multipart form data in the part "file"', async () => {
    const file = new File(['{}'], 'asvs.cdx.json', { type: 'application/json' })
    await importFile(file)
    const body = (post.mock.calls[0]![1] as { body: FormData }).body
    expect(body).toBeInstanceOf(FormData)
    expect((body.get('file') as File).name).toBe('asvs.cdx.json')
  })

  it('builds the export addresses', () => {
    expect(exportUrl('st_1', '1.7')).toBe('/api/v1/standards/st_1/export?specVersion=1.7')
    expect(exportCsvUrl('st_1')).toBe('/api/v1/standards/st_1/export.csv')
  })
})
