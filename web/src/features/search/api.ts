import { api, timeoutSignal, unwrap } from '../../api/client'
import type { components } from '../../api/schema'

/** SearchHit is one record found, with the page that opens it. */
export type SearchHit = components['schemas']['SearchHit']
/** SearchType is a kind of record search finds. */
export type SearchType = SearchHit['type']
/** SearchGroup is the hits of one kind; `more` says there are others. */
export interface SearchGroup {
  type: SearchType
  items: SearchHit[]
  more: boolean
}
/** SearchResults is the answer of a global search: hits grouped by kind, best first. */
export interface SearchResults {
  query: string
  groups: SearchGroup[]
}

/** SEARCH_TYPES is every kind, in the order the answer groups them. */
export const SEARCH_TYPES: SearchType[] = ['standard', 'requirement', 'entity', 'project', 'assessment', 'evidence', 'claim']

/** SEARCH_MAX_LENGTH is the longest query the server takes. */
export const SEARCH_MAX_LENGTH = 200

/**
 * searchRecords finds the records the caller may open: `limit` hits per kind, of `types`
 * (all when absent).
 */
export async function searchRecords(q: string, options: { types?: SearchType[]; limit?: number } = {}): Promise<SearchResults> {
  const res = await unwrap(
    api.GET('/api/v1/search', {
      params: { query: { q, types: options.types?.join(','), limit: options.limit } },
      signal: timeoutSignal(15_000),
    }),
  )
  return { query: res.query, groups: (res.groups ?? []).map((g) => ({ type: g.type, items: g.items ?? [], more: g.more })) }
}
