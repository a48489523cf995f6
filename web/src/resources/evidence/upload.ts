import { unauthorizedMiddleware } from '../../api/client'
import { ApiError, networkError, toApiError } from '../../api/errors'
import type { Attachment } from './types'

// Uploads go through XMLHttpRequest rather than fetch: only it reports how much of the
// request body has been sent, which the progress bar shows. The request is what the
// typed client would send: same origin, the session cookie, and the browser's Origin
// header, which the server checks on every cookie-authenticated change (there is no
// separate CSRF token). A 401 is reported like the typed client's, so an ended session
// is noticed here too.

/** UPLOAD_CANCELLED is the error code of an upload the viewer cancelled. */
export const UPLOAD_CANCELLED = 'upload_cancelled'

/** UploadResult is the stored attachment; `existing` when the same bytes were attached already (200). */
export interface UploadResult {
  attachment: Attachment
  existing: boolean
}

/** Upload is one running upload: its outcome, and a way to cancel it. */
export interface Upload {
  done: Promise<UploadResult>
  cancel(): void
}

/** ProgressListener hears how many bytes of the body have been sent, of how many. */
export type ProgressListener = (loaded: number, total: number) => void

function headers(xhr: XMLHttpRequest): Headers {
  const result = new Headers()
  const requestId = xhr.getResponseHeader('X-Request-Id')
  if (requestId) result.set('X-Request-Id', requestId)
  return result
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function reportUnauthorized(url: string): void {
  const onResponse = unauthorizedMiddleware.onResponse as ((params: unknown) => void) | undefined
  onResponse?.({ schemaPath: url, response: new Response(null, { status: 401 }) })
}

/**
 * uploadFile sends `file` as multipart/form-data (field `file`) to `url`, reporting
 * progress. It resolves with the stored attachment and rejects with an ApiError: the
 * server's envelope (413 too large, 415 refused type, …), a network failure (status 0),
 * or UPLOAD_CANCELLED after cancel().
 */
export function uploadFile(url: string, file: File, onProgress: ProgressListener): Upload {
  const xhr = new XMLHttpRequest()
  const done = new Promise<UploadResult>((resolve, reject) => {
    xhr.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : file.size)
    xhr.onload = () => {
      const body = parse(xhr.responseText)
      if (xhr.status >= 200 && xhr.status < 300 && body && typeof body === 'object') {
        onProgress(file.size, file.size)
        resolve({ attachment: body as Attachment, existing: xhr.status === 200 })
        return
      }
      if (xhr.status === 401) reportUnauthorized(url)
      const response = { status: xhr.status, headers: headers(xhr) } as Response
      reject(toApiError(response, body))
    }
    xhr.onerror = () => reject(networkError(new Error('upload failed')))
    xhr.ontimeout = () => reject(networkError(new Error('upload timed out')))
    xhr.onabort = () => reject(new ApiError(0, UPLOAD_CANCELLED, '', ''))
  })
  const form = new FormData()
  form.append('file', file, file.name)
  xhr.open('POST', url)
  xhr.setRequestHeader('Accept', 'application/json')
  xhr.send(form)
  return { done, cancel: () => xhr.abort() }
}
