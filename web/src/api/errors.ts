import type { components } from './schema'

/** ErrorEnvelope is the JSON body every failing API call answers with (P3.4). */
export type ErrorEnvelope = components['schemas']['Error']

/** ErrorDetail is one entry of an envelope's `details`, usually a field problem. */
export type ErrorDetail = NonNullable<ErrorEnvelope['details']>[number]

/** NETWORK_ERROR is the code of an ApiError raised when no response arrived at all. */
export const NETWORK_ERROR = 'network_error'

/** UNEXPECTED_RESPONSE is the code of an ApiError whose body was not an error envelope. */
export const UNEXPECTED_RESPONSE = 'unexpected_response'

/** VERSION_CONFLICT is the error code of an update sent with a stale version. */
export const VERSION_CONFLICT = 'version_conflict'

/**
 * ApiError is a failed API call in one shape, whatever went wrong: an error
 * envelope from the server, a response that was not one (a proxy page, say), or
 * no response at all (status 0). `message` is the server's text and may be empty
 * when the server sent none; use describeApiError to get something to display.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError'

  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
    readonly requestId: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message)
  }

  /** fromServer reports whether the server explained the failure in an envelope. */
  get fromServer(): boolean {
    return this.error !== NETWORK_ERROR && this.error !== UNEXPECTED_RESPONSE
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function stringField(body: Record<string, unknown>, key: string): string {
  const value = body[key]
  return typeof value === 'string' ? value : ''
}

function parseDetails(value: unknown): ErrorDetail[] {
  if (!Array.isArray(value)) return []
  return value.filter(isRecord).map((entry) => {
    const detail: ErrorDetail = {}
    for (const key of ['field', 'code', 'message'] as const) {
      const text = entry[key]
      if (typeof text === 'string') detail[key] = text
    }
    return detail
  })
}

/**
 * toApiError turns a non-2xx response and its parsed body into an ApiError.
 * A body that is not an envelope still yields an ApiError, with the code
 * UNEXPECTED_RESPONSE, so callers never have to guess the shape.
 */
export function toApiError(response: Response, body: unknown): ApiError {
  const headerRequestId = response.headers.get('X-Request-Id') ?? ''
  if (!isRecord(body) || typeof body.error !== 'string' || body.error === '') {
    const message = isRecord(body) ? stringField(body, 'message') : ''
    return new ApiError(response.status, UNEXPECTED_RESPONSE, message, headerRequestId)
  }
  return new ApiError(
    response.status,
    body.error,
    stringField(body, 'message'),
    stringField(body, 'requestId') || headerRequestId,
    parseDetails(body.details),
  )
}

/** networkError wraps a failed fetch (offline, DNS, aborted) as an ApiError with status 0. */
export function networkError(cause: unknown): ApiError {
  const error = new ApiError(0, NETWORK_ERROR, '', '')
  ;(error as Error).cause = cause
  return error
}
