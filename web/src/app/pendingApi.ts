import createClient from 'openapi-fetch'
import { clientOptions, unauthorizedMiddleware, unwrap } from '../api/client'

// A stopgap client for the operations of issue #13 (evidence, attachments, claims) that
// the generated schema does not describe yet: the same options, 401 handling and error
// envelope as the typed client in src/api/client.ts, without the path types. The
// features' api.ts modules move to the typed client once the server's OpenAPI document
// has these paths, and this file goes.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const untyped = createClient<any>(clientOptions)
untyped.use(unauthorizedMiddleware)

/** Query is a request's query string. */
export type Query = Record<string, string | number | boolean | undefined>

function clean(query: Query | undefined): Record<string, string | number | boolean> | undefined {
  if (!query) return undefined
  const out: Record<string, string | number | boolean> = {}
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') out[key] = value
  return out
}

/** getJSON reads `path` (under /api/v1) with the query. */
export function getJSON<T>(path: string, query?: Query): Promise<T> {
  return unwrap<T>(untyped.GET(`/api/v1${path}`, { params: { query: clean(query) } }))
}

/** postJSON sends `body` to `path` and answers the response's JSON. */
export function postJSON<T>(path: string, body: unknown): Promise<T> {
  return unwrap<T>(untyped.POST(`/api/v1${path}`, { body }))
}

/** patchJSON changes the record at `path`. */
export function patchJSON<T>(path: string, body: unknown): Promise<T> {
  return unwrap<T>(untyped.PATCH(`/api/v1${path}`, { body }))
}

/** deletePath removes the record at `path`, with the query (e.g. its version). */
export async function deletePath(path: string, query?: Query): Promise<void> {
  await unwrap(untyped.DELETE(`/api/v1${path}`, { params: { query: clean(query) } }))
}

/** getBlob reads the bytes at `path` with the session, e.g. an attachment's content. */
export function getBlob(path: string, signal?: AbortSignal): Promise<Blob> {
  return unwrap<Blob>(untyped.GET(`/api/v1${path}`, { parseAs: 'blob', signal }))
}
