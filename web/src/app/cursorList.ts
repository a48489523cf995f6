import { ref, shallowRef, type Ref } from 'vue'
import { ApiError } from '../api/client'
import { networkError } from '../api/errors'

/** CursorPage is one page of a server list: `{items, nextCursor, hasMore}`. */
export interface CursorPage<T> {
  items: T[] | null
  nextCursor?: string
  hasMore: boolean
}

/** PageFetcher asks the server for the page after `cursor` (the first page when undefined). */
export type PageFetcher<T> = (cursor: string | undefined) => Promise<CursorPage<T>>

/**
 * fetchEveryPage reads a server list to its end, page after page, for a view that needs
 * all of it (a picker, a choice to save). A list to read uses useCursorList and "Load
 * more" instead. A page that says hasMore without a cursor ends the list, as in
 * useCursorList.
 */
export async function fetchEveryPage<T>(fetchPage: PageFetcher<T>): Promise<T[]> {
  const all: T[] = []
  let cursor: string | undefined
  for (;;) {
    const page = await fetchPage(cursor)
    all.push(...(page.items ?? []))
    cursor = page.nextCursor || undefined
    if (!page.hasMore || cursor === undefined) return all
  }
}

/** CursorList is a server-paginated list as a page shows it. */
export interface CursorList<T> {
  items: Ref<T[]>
  /** loading is true while the first page loads (after reload). */
  loading: Ref<boolean>
  /** loadingMore is true while a further page loads. */
  loadingMore: Ref<boolean>
  /** hasMore says whether "Load more" has anything to load. */
  hasMore: Ref<boolean>
  /** error is the last failure, cleared by the next successful load. */
  error: Ref<ApiError | null>
  /** reload starts again from the first page, e.g. after a filter changed. */
  reload(): Promise<void>
  /** loadMore appends the next page. */
  loadMore(): Promise<void>
}

function asApiError(cause: unknown): ApiError {
  return cause instanceof ApiError ? cause : networkError(cause)
}

/**
 * useCursorList keeps a list that the server pages with opaque cursors. Every
 * filtering and sorting happens on the server: a changed filter calls reload(),
 * which forgets the loaded pages. Answers to superseded requests (the filter
 * changed again meanwhile) are dropped, so a slow old answer never overwrites a
 * newer one.
 */
export function useCursorList<T>(fetchPage: PageFetcher<T>): CursorList<T> {
  const items = shallowRef<T[]>([])
  const loading = ref(false)
  const loadingMore = ref(false)
  const hasMore = ref(false)
  const error = ref<ApiError | null>(null)
  let cursor: string | undefined
  let generation = 0

  function accept(page: CursorPage<T>, append: boolean): void {
    const next = page.items ?? []
    items.value = append ? [...items.value, ...next] : next
    cursor = page.nextCursor || undefined
    hasMore.value = page.hasMore && cursor !== undefined
    error.value = null
  }

  async function reload(): Promise<void> {
    const current = ++generation
    loading.value = true
    loadingMore.value = false
    try {
      const page = await fetchPage(undefined)
      if (current === generation) accept(page, false)
    } catch (cause) {
      if (current === generation) error.value = asApiError(cause)
    } finally {
      if (current === generation) loading.value = false
    }
  }

  async function loadMore(): Promise<void> {
    if (loading.value || loadingMore.value || !hasMore.value) return
    const current = generation
    loadingMore.value = true
    try {
      const page = await fetchPage(cursor)
      if (current === generation) accept(page, true)
    } catch (cause) {
      if (current === generation) error.value = asApiError(cause)
    } finally {
      if (current === generation) loadingMore.value = false
    }
  }

  return { items, loading, loadingMore, hasMore, error, reload, loadMore }
}
