import createClient, { type ClientOptions } from 'openapi-fetch'
import { ApiError, networkError, toApiError } from './errors'
import type { paths } from './schema'

export { ApiError, toApiError } from './errors'
export type { ErrorDetail, ErrorEnvelope } from './errors'

/**
 * clientOptions are shared by every client of the Assay API: same origin, and the
 * session cookie travels with each request.
 */
export const clientOptions: ClientOptions = {
  baseUrl: '',
  credentials: 'same-origin',
}

/**
 * api is the typed client for the Assay API, generated from the server's OpenAPI
 * document (see `npm run gen:api`). It is the only way the UI reaches the server.
 */
export const api = createClient<paths>(clientOptions)

/** ApiResult is the shape openapi-fetch resolves with. */
type ApiResult<T> = { data?: T; error?: unknown; response: Response }

/**
 * unwrap awaits an openapi-fetch call and returns its data, throwing an ApiError
 * for a non-2xx answer and for a request that never got one.
 */
export async function unwrap<T>(call: Promise<ApiResult<T>>): Promise<T> {
  let result: ApiResult<T>
  try {
    result = await call
  } catch (cause) {
    if (cause instanceof ApiError) throw cause
    throw networkError(cause)
  }
  if (!result.response.ok) throw toApiError(result.response, result.error)
  return result.data as T
}

/**
 * timeoutSignal aborts a request that has not been answered after `ms`
 * milliseconds, so a hung server cannot leave the UI waiting forever.
 */
export function timeoutSignal(ms: number): AbortSignal {
  const controller = new AbortController()
  setTimeout(() => controller.abort(), ms)
  return controller.signal
}
