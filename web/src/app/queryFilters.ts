import { computed, reactive, watch, type UnwrapNestedRefs, type WritableComputedRef } from 'vue'
import type { LocationQuery, LocationQueryRaw } from 'vue-router'
import { useRoute, useRouter } from 'vue-router'

/** queryText is one value of a route's query as text: the first of a repeated key, '' when absent. */
export function queryText(value: LocationQuery[string] | undefined): string {
  const first = Array.isArray(value) ? value[0] : value
  return typeof first === 'string' ? first : ''
}

/** queryChoice is `value` if it is one of `allowed`, else `fallback` (for enums read from a URL). */
export function queryChoice<T extends string, D extends T | ''>(value: string, allowed: readonly T[], fallback: D): T | D {
  return (allowed as readonly string[]).includes(value) ? (value as T) : fallback
}

/** sameQuery compares two route queries by their values, ignoring key order. */
export function sameQuery(a: LocationQueryRaw, b: LocationQueryRaw): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)])
  for (const key of keys) {
    if (String(a[key] ?? '') !== String(b[key] ?? '')) return false
  }
  return true
}

/**
 * useQueryFilters keeps a list's filters in the URL's query: they start from the
 * query, every change replaces the query (no history entry per keystroke), and a
 * change of the URL (back button, a link) updates them. `fromQuery` must accept
 * any query, ignoring what it does not understand.
 */
export function useQueryFilters<F extends object>(
  fromQuery: (query: LocationQuery) => F,
  toQuery: (filters: F) => LocationQueryRaw,
): UnwrapNestedRefs<F> {
  const route = useRoute()
  const router = useRouter()
  const filters = reactive(fromQuery(route.query)) as UnwrapNestedRefs<F>

  watch(
    () => toQuery({ ...filters } as F),
    (query) => {
      if (!sameQuery(query, toQuery(fromQuery(route.query)))) void router.replace({ query })
    },
  )
  watch(
    () => route.query,
    (query) => {
      const next = fromQuery(query)
      if (!sameQuery(toQuery(next), toQuery({ ...filters } as F))) Object.assign(filters, next)
    },
  )
  return filters
}

/**
 * useQueryTab keeps a page's tab in the URL's `tab` query, so a link can open a tab and
 * Back returns to the one before. The first of `tabs` is the default, left out of the URL.
 */
export function useQueryTab<T extends string>(tabs: readonly [T, ...T[]]): WritableComputedRef<T> {
  const route = useRoute()
  const router = useRouter()
  return computed({
    get: () => queryChoice(queryText(route.query.tab), tabs, tabs[0]),
    set: (value) => void router.replace({ query: { ...route.query, tab: value === tabs[0] ? undefined : value } }),
  })
}
