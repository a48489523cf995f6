import { reactive, watch, type UnwrapNestedRefs } from 'vue'
import type { LocationQuery, LocationQueryRaw } from 'vue-router'
import { useRoute, useRouter } from 'vue-router'

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
