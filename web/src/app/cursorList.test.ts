import { describe, expect, it, vi } from 'vitest'
import { ApiError } from '../api/errors'
import { fetchEveryPage, useCursorList, type CursorPage } from './cursorList'

function deferred<T>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}

describe('useCursorList', () => {
  it('loads the first page, then appends the next one with its cursor', async () => {
    const fetchPage = vi
      .fn<(cursor: string | undefined) => Promise<CursorPage<number>>>()
      .mockResolvedValueOnce({ items: [1, 2], nextCursor: 'c2', hasMore: true })
      .mockResolvedValueOnce({ items: [3], hasMore: false })
    const list = useCursorList(fetchPage)
    await list.reload()
    expect(list.items.value).toEqual([1, 2])
    expect(list.hasMore.value).toBe(true)
    await list.loadMore()
    expect(fetchPage).toHaveBeenLastCalledWith('c2')
    expect(list.items.value).toEqual([1, 2, 3])
    expect(list.hasMore.value).toBe(false)
    await list.loadMore()
    expect(fetchPage).toHaveBeenCalledTimes(2)
  })

  it('reload starts again from the first page', async () => {
    const fetchPage = vi
      .fn<(cursor: string | undefined) => Promise<CursorPage<number>>>()
      .mockResolvedValueOnce({ items: [1], nextCursor: 'c2', hasMore: true })
      .mockResolvedValueOnce({ items: [9], hasMore: false })
    const list = useCursorList(fetchPage)
    await list.reload()
    await list.reload()
    expect(fetchPage).toHaveBeenLastCalledWith(undefined)
    expect(list.items.value).toEqual([9])
  })

  it('drops the answer to a superseded request', async () => {
    const slow = deferred<CursorPage<string>>()
    const fetchPage = vi
      .fn<(cursor: string | undefined) => Promise<CursorPage<string>>>()
      .mockReturnValueOnce(slow.promise)
      .mockResolvedValueOnce({ items: ['new'], hasMore: false })
    const list = useCursorList(fetchPage)
    const first = list.reload()
    await list.reload()
    slow.resolve({ items: ['old'], hasMore: false })
    await first
    expect(list.items.value).toEqual(['new'])
    expect(list.loading.value).toBe(false)
  })

  it('keeps the loaded items and records a failure', async () => {
    const failure = new ApiError(500, 'internal_error', 'Boom.', 'r1')
    const fetchPage = vi
      .fn<(cursor: string | undefined) => Promise<CursorPage<number>>>()
      .mockResolvedValueOnce({ items: [1], nextCursor: 'c2', hasMore: true })
      .mockRejectedValueOnce(failure)
    const list = useCursorList(fetchPage)
    await list.reload()
    await list.loadMore()
    expect(list.items.value).toEqual([1])
    expect(list.error.value).toBe(failure)
  })
})

describe('fetchEveryPage', () => {
  it('follows the cursors until the last page', async () => {
    const fetchPage = vi
      .fn<(cursor: string | undefined) => Promise<CursorPage<number>>>()
      .mockResolvedValueOnce({ items: [1, 2], nextCursor: 'c2', hasMore: true })
      .mockResolvedValueOnce({ items: null, nextCursor: 'c3', hasMore: true })
      .mockResolvedValueOnce({ items: [3], hasMore: false })
    expect(await fetchEveryPage(fetchPage)).toEqual([1, 2, 3])
    expect(fetchPage.mock.calls).toEqual([[undefined], ['c2'], ['c3']])
  })

  it('stops at a page that says more but gives no cursor', async () => {
    const fetchPage = vi.fn<(cursor: string | undefined) => Promise<CursorPage<number>>>().mockResolvedValue({ items: [1], hasMore: true })
    expect(await fetchEveryPage(fetchPage)).toEqual([1])
    expect(fetchPage).toHaveBeenCalledTimes(1)
  })

  it('fails when a page fails', async () => {
    const failure = new ApiError(400, 'validation_failed', 'Bad cursor.', 'r1')
    const fetchPage = vi
      .fn<(cursor: string | undefined) => Promise<CursorPage<number>>>()
      .mockResolvedValueOnce({ items: [1], nextCursor: 'c2', hasMore: true })
      .mockRejectedValueOnce(failure)
    await expect(fetchEveryPage(fetchPage)).rejects.toBe(failure)
  })
})
