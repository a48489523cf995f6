import { computed, onBeforeUnmount, onMounted, reactive, watch, type ComputedRef, type Ref, type UnwrapNestedRefs } from 'vue'
import type { LocationQuery, LocationQueryRaw } from 'vue-router'
import { useCursorList, type CursorList, type CursorPage } from './cursorList'
import { PHONE_QUERY, useMediaQuery } from './media'
import { useQueryFilters } from './queryFilters'

/** SEARCH_DELAY_MS is how long typing must pause before a list asks the server. */
export const SEARCH_DELAY_MS = 300

/** QueryMapping reads a list's filters from the URL's query and writes them back. */
export interface QueryMapping<F> {
  /** fromQuery must accept any query, ignoring what it does not understand. */
  fromQuery(query: LocationQuery): F
  /** toQuery leaves out what is empty or the default, so the URL stays short. */
  toQuery(filters: F): LocationQueryRaw
}

/** FilteredListOptions describe one list page: where its filters live and how it asks the server. */
export type FilteredListOptions<T, F extends object> = (
  | {
      /** query keeps the filters in the URL's query: bookmarkable, and Back restores them. */
      query: QueryMapping<F>
    }
  | {
      /** initial are the filters of a list that keeps them in the page only. */
      initial: () => F
    }
) & {
  /** fetchPage asks the server for the page after `cursor` of the list the filters select. */
  fetchPage(filters: F, cursor: string | undefined): Promise<CursorPage<T>>
  /**
   * request is what of the filters reaches the server (e.g. the list's query without the
   * view); the list reloads when it changes. Default: the filters themselves.
   */
  request?(filters: F): object
  /** typed are the filters typed into a box: a change waits SEARCH_DELAY_MS. Default: `q` if the filters have it. */
  typed?: readonly (keyof F & string)[]
  /** shown says whether the list is on screen (e.g. not the graph view); it loads when it appears. Default: always. */
  shown?(filters: F): boolean
  /** isFiltered says whether the filters narrow the list (for the empty state's text). Default: never. */
  isFiltered?(filters: F): boolean
  /** cleared are the values clear() puts back (e.g. every filter but the sort). Default: nothing. */
  cleared?: Partial<F>
}

/** FilteredList is a list page's state: its filters, the server's pages and the layout. */
export interface FilteredList<T, F extends object> {
  /** filters are the page's filters; the page binds its toolbar to them. */
  filters: UnwrapNestedRefs<F>
  /** list is the loaded pages ("Load more", loading flags, the last failure). */
  list: CursorList<T>
  /** phone is true on a phone's width, where list pages show cards instead of a table. */
  phone: Ref<boolean>
  /** filtered is isFiltered of the current filters. */
  filtered: ComputedRef<boolean>
  /** clear puts the `cleared` values back (the empty state's "Clear filters"). */
  clear(): void
  /** query is what the list asks the server for the current filters (for its CSV export's link). */
  query: ComputedRef<unknown>
}

/**
 * useFilteredList holds what every list page does: its filters (in the URL's query, or
 * in the page), the server's cursor pages of the list they select, a reload when a
 * filter changes (after a pause in typing for the search boxes, at once for the
 * others, the pending search then dropped), the first load when the page mounts, and
 * whether the viewport is a phone's. Every filtering and sorting happens on the server.
 */
export function useFilteredList<T, F extends object>(options: FilteredListOptions<T, F>): FilteredList<T, F> {
  const filters =
    'query' in options
      ? useQueryFilters(options.query.fromQuery, options.query.toQuery)
      : (reactive(options.initial()) as UnwrapNestedRefs<F>)
  const current = () => ({ ...filters }) as F
  const list = useCursorList<T>((cursor) => options.fetchPage(current(), cursor))
  const phone = useMediaQuery(PHONE_QUERY)
  const typed: readonly string[] = options.typed ?? ('q' in filters ? ['q'] : [])
  const request = options.request ?? ((value: F) => value)
  const shown = options.shown ?? (() => true)

  let timer: ReturnType<typeof setTimeout> | undefined
  if (typed.length > 0) {
    watch(
      typed.map((key) => () => (filters as Record<string, unknown>)[key]),
      () => {
        clearTimeout(timer)
        timer = setTimeout(() => void list.reload(), SEARCH_DELAY_MS)
      },
    )
  }
  watch(
    () => JSON.stringify({ ...request(current()), ...Object.fromEntries(typed.map((key) => [key, undefined])) }),
    () => {
      clearTimeout(timer)
      void list.reload()
    },
  )
  watch(
    () => shown(current()),
    (now) => {
      if (now) void list.reload()
    },
  )
  onMounted(() => {
    if (shown(current())) void list.reload()
  })
  onBeforeUnmount(() => clearTimeout(timer))

  const filtered = computed(() => options.isFiltered?.(current()) ?? false)
  function clear(): void {
    Object.assign(filters, options.cleared ?? {})
  }

  const query = computed(() => request(current()))

  return { filters, list, phone, filtered, clear, query }
}
