import { ApiError } from '../../api/client'
import { networkError } from '../../api/errors'
import type { ImportError } from './types'

// How the answers of the imports read: a refused document's details become the JSON-path
// errors ImportErrors lists; a file that is not CycloneDX JSON at all says so in words; a
// download that failed (the URL, the feed) is said plainly, with the file upload offered
// instead; any other failure stays an ApiError for an alert.

/** NOT_CYCLONEDX_CODES are the server's codes for a document that is not CycloneDX JSON at all. */
export const NOT_CYCLONEDX_CODES: readonly string[] = ['invalid_json', 'not_cyclonedx']

/** DOWNLOAD_CODES are the server's codes for a document it could not download (or may not). */
export const DOWNLOAD_CODES: readonly string[] = ['fetch_failed', 'feed_unreachable', 'url_not_allowed']

/** ImportFailure is why an import failed: the document's errors, not CycloneDX, a failed download, or the call's failure. */
export type ImportFailure =
  | { kind: 'document'; errors: ImportError[]; error: ApiError }
  | { kind: 'notCycloneDx'; reason: string }
  | { kind: 'download'; error: ApiError }
  | { kind: 'call'; error: ApiError }

/** isDownloadFailure reports an answer saying that a document could not be downloaded (details fetch_failed, feed_unreachable, url_not_allowed). */
export function isDownloadFailure(error: ApiError | null | undefined): boolean {
  return Boolean(error?.details.some((detail) => DOWNLOAD_CODES.includes(detail.code ?? '')))
}

/**
 * importFailure sorts a failed import: a download that failed is said plainly; a 422
 * naming invalid_json or not_cyclonedx is not a CycloneDX JSON document (the server's
 * reason kept); any other 422 with details is a problem of the document.
 */
export function importFailure(cause: unknown): ImportFailure {
  const error = cause instanceof ApiError ? cause : networkError(cause)
  if (isDownloadFailure(error)) return { kind: 'download', error }
  if (error.status === 422 && error.details.length > 0) {
    const notCycloneDx = error.details.find((detail) => NOT_CYCLONEDX_CODES.includes(detail.code ?? ''))
    if (notCycloneDx) return { kind: 'notCycloneDx', reason: notCycloneDx.message ?? error.message }
    const errors = error.details.map((detail) => ({
      path: detail.field ?? '',
      // The server's words; its code (duplicate, unknown_parent) only when it has none.
      message: detail.message || detail.code || '',
    }))
    return { kind: 'document', errors, error }
  }
  return { kind: 'call', error }
}

/** FILE_KINDS are the endings of the files each import takes. */
export const FILE_KINDS = { cyclonedx: ['.json'], csv: ['.csv'] } as const

/** hasEnding reports whether a file's name ends with one of `endings` (in any letter case). */
export function hasEnding(file: { name: string }, endings: readonly string[]): boolean {
  const name = file.name.toLowerCase()
  return endings.some((ending) => name.endsWith(ending))
}
