import { ApiError } from '../../api/client'
import { networkError } from '../../api/errors'
import type { ImportError } from './types'

// How the answers of the imports read: a refused document's details become the JSON-path
// errors ImportErrors lists; any other failure stays an ApiError for an alert.

/** ImportFailure is why an import failed: the document's errors, or the call's failure. */
export type ImportFailure = { kind: 'document'; errors: ImportError[]; error: ApiError } | { kind: 'call'; error: ApiError }

/** importFailure sorts a failed import: a 422 with details is a problem of the document. */
export function importFailure(cause: unknown): ImportFailure {
  const error = cause instanceof ApiError ? cause : networkError(cause)
  if (error.status === 422 && error.details.length > 0) {
    const errors = error.details.map((detail) => ({
      path: detail.field ?? '',
      message: [detail.message ?? '', detail.code ? `(${detail.code})` : ''].filter(Boolean).join(' '),
    }))
    return { kind: 'document', errors, error }
  }
  return { kind: 'call', error }
}
