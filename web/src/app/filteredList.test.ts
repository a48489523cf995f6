import { flushPromises, mount } from '@vue/test-utils'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, h, nextTick } from 'vue'
import type { LocationQuery, LocationQueryRaw } from 'vue-router'
import { createMemoryHistory, createRouter } from 'vue-router'
import type { CursorPage } from './cursorList'
import { SEARCH_DELAY_MS, useFilteredList, type FilteredList, type FilteredListOptions } from './filteredList'
import { queryText } from './queryFilters'

interface Filters {
  q: string
  state: string
  view: string
}

const fromQuery = (query: LocationQuery): Filters => ({
  q: queryText(query.q),
  state: queryText(query.state),
  view: queryText(query.view) || 'table',
})
function toQuery(filters: Filters): LocationQueryRaw {
  const query: LocationQueryRaw = {}
  if (filters.q !== '') query.q = filters.q
  if (filters.state !== '') query.state = filters.state
  if (filters.view !== 'table') query.view = filters.view
  return query
}

type Fetch = (filters: Filters, cursor: string | undefined) => Promise<CursorPage<string>>

/** pageOf is a page component whose setup is `use` (it shows nothing of its own). */
function pageOf(use: () => void) {
  return defineComponent({
    setup() {
      use()
      return () => h('p')
    },
  })
}

/** mountList mounts a page using useFilteredList at `path` and hands back its state. */
async function mountList(path: string, options: Omit<FilteredListOptions<string, Filters>, 'query' | 'fetchPage'> = {}) {
  const fetchPage = vi.fn<Fetch>(async (filters, cursor) =>
    cursor ? { items: ['c'], hasMore: false } : { items: [`${filters.q}|${filters.state}`, 'b'], nextCursor: 'n1', hasMore: true },
  )
  let state!: FilteredList<string, Filters>
  const Page = pageOf(() => {
    state = useFilteredList<string, Filters>({ query: { fromQuery, toQuery }, fetchPage, ...options })
  })
  const router = createRouter({ history: createMemoryHistory(), routes: [{ path: '/list', component: Page }] })
  await router.push(path)
  const wrapper = mount({ template: '<RouterView />' }, { global: { plugins: [router] } })
  await flushPromises()
  return { state, fetchPage, router, wrapper }
}

describe('useFilteredList', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('reads the filters from the URL and loads the first page on mount, then the next one', async () => {
    const { state, fetchPage } = await mountList('/list?q=web&state=open')
    expect(state.filters).toEqual({ q: 'web', state: 'open', view: 'table' })
    expect(fetchPage).toHaveBeenCalledTimes(1)
    expect(fetchPage).toHaveBeenLastCalledWith({ q: 'web', state: 'open', view: 'table' }, undefined)
    expect(state.list.items.value).toEqual(['web|open', 'b'])
    await state.list.loadMore()
    expect(fetchPage).toHaveBeenLastCalledWith(expect.objectContaining({ q: 'web' }), 'n1')
    expect(state.list.items.value).toEqual(['web|open', 'b', 'c'])
  })

  it('writes a changed filter into the URL and reloads at once', async () => {
    const { state, fetchPage, router } = await mountList('/list')
    state.filters.state = 'closed'
    await flushPromises()
    expect(router.currentRoute.value.query).toEqual({ state: 'closed' })
    expect(fetchPage).toHaveBeenCalledTimes(2)
    expect(state.list.items.value).toEqual(['|closed', 'b'])
  })

  it('waits for a pause in typing before it searches, and a filter change overtakes the search', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const { state, fetchPage } = await mountList('/list')
    state.filters.q = 'w'
    await nextTick()
    state.filters.q = 'we'
    await nextTick()
    vi.advanceTimersByTime(SEARCH_DELAY_MS - 1)
    expect(fetchPage).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(1)
    expect(fetchPage).toHaveBeenCalledTimes(2)
    expect(fetchPage).toHaveBeenLastCalledWith(expect.objectContaining({ q: 'we' }), undefined)

    state.filters.q = 'web'
    await nextTick()
    state.filters.state = 'open'
    await nextTick()
    expect(fetchPage).toHaveBeenCalledTimes(3)
    vi.advanceTimersByTime(SEARCH_DELAY_MS)
    expect(fetchPage).toHaveBeenCalledTimes(3)
  })

  it('follows the URL (Back, a link) and reloads', async () => {
    const { state, fetchPage, router } = await mountList('/list?state=open')
    await router.push('/list?state=closed')
    await flushPromises()
    expect(state.filters.state).toBe('closed')
    expect(fetchPage).toHaveBeenLastCalledWith(expect.objectContaining({ state: 'closed' }), undefined)
  })

  it('reloads only when what reaches the server changes, and loads a hidden list when it appears', async () => {
    const { state, fetchPage } = await mountList('/list?view=graph', {
      request: ({ q, state }) => ({ q, state }),
      shown: (filters) => filters.view === 'table',
    })
    expect(fetchPage).not.toHaveBeenCalled()
    state.filters.view = 'table'
    await flushPromises()
    expect(fetchPage).toHaveBeenCalledTimes(1)
    state.filters.view = 'graph'
    await flushPromises()
    expect(fetchPage).toHaveBeenCalledTimes(1)
  })

  it('says whether the filters narrow the list and clears them', async () => {
    const { state, router } = await mountList('/list?q=x&state=open&view=graph', {
      isFiltered: (filters) => filters.q !== '' || filters.state !== '',
      cleared: { q: '', state: '' },
    })
    expect(state.filtered.value).toBe(true)
    state.clear()
    await flushPromises()
    expect(state.filtered.value).toBe(false)
    expect(router.currentRoute.value.query).toEqual({ view: 'graph' })
  })

  it('keeps filters in the page when the URL does not hold them, debouncing the typed ones', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const fetchPage = vi.fn(async (_filters: { actor: string; days: number }, _cursor: string | undefined) => ({ items: [1], hasMore: false }))
    let state!: FilteredList<number, { actor: string; days: number }>
    mount(
      pageOf(() => {
        state = useFilteredList({ initial: () => ({ actor: '', days: 0 }), fetchPage, typed: ['actor'] })
      }),
    )
    expect(fetchPage).toHaveBeenCalledTimes(1)
    state.filters.actor = 'ada'
    await nextTick()
    expect(fetchPage).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(SEARCH_DELAY_MS)
    expect(fetchPage).toHaveBeenCalledTimes(2)
    state.filters.days = 7
    await nextTick()
    expect(fetchPage).toHaveBeenCalledTimes(3)
    expect(fetchPage).toHaveBeenLastCalledWith({ actor: 'ada', days: 7 }, undefined)
  })

  it('drops a pending search when the page goes away', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const { state, fetchPage, wrapper } = await mountList('/list')
    state.filters.q = 'gone'
    await nextTick()
    wrapper.unmount()
    vi.advanceTimersByTime(SEARCH_DELAY_MS)
    expect(fetchPage).toHaveBeenCalledTimes(1)
  })

  it('follows the phone width, where list pages show cards', async () => {
    const listeners: (() => void)[] = []
    const media = { matches: true, addEventListener: (_: string, fn: () => void) => listeners.push(fn), removeEventListener: vi.fn() }
    vi.stubGlobal('matchMedia', vi.fn(() => media))
    const { state } = await mountList('/list')
    expect(state.phone.value).toBe(true)
    media.matches = false
    listeners.forEach((fn) => fn())
    expect(state.phone.value).toBe(false)
  })
})
