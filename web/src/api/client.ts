import createClient, { type ClientOptions, type Middleware } from 'openapi-fetch'
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

/**
 * NOT_A_SESSION_END lists the operations whose 401 does not mean that a session has
 * ended: signing in answers 401 for a wrong password, and signing out of a session
 * that has already ended is what the caller wanted anyway.
 */
const NOT_A_SESSION_END: ReadonlySet<string> = new Set(['/api/v1/auth/login', '/api/v1/auth/logout'])

let unauthorizedListener: (() => void) | null = null

/**
 * onUnauthorized registers the function told whenever the server answers 401
 * ("who are you?") to a call through `api`, except those in NOT_A_SESSION_END. The
 * session module (app/session/expiry.ts) uses it to notice an expired or revoked session wherever it shows
 * up. There is one listener; registering another replaces it. Returns a function
 * that removes the listener.
 */
export function onUnauthorized(listener: () => void): () => void {
  unauthorizedListener = listener
  return () => {
    if (unauthorizedListener === listener) unauthorizedListener = null
  }
}

/** unauthorizedMiddleware reports 401 answers to the listener; the caller still gets its ApiError. */
export const unauthorizedMiddleware: Middleware = {
  onResponse({ schemaPath, response }) {
    if (response.status === 401 && !NOT_A_SESSION_END.has(schemaPath)) unauthorizedListener?.()
  },
}

api.use(unauthorizedMiddleware)

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
