import { api } from '../../api/client'
import { networkError, toApiError } from '../../api/errors'

// The PDF reports of assessments and attestations (docs/attestations.md, "PDF reports"):
// one download per record, named by the server.

/** ReportKind is what a report is of. */
export type ReportKind = 'assessment' | 'attestation'

/** Report is a downloaded PDF with the file name the server gave it. */
export interface Report {
  blob: Blob
  filename: string
}

/** reportFilename reads the file name of Content-Disposition: filename* (UTF-8) first, then filename. */
export function reportFilename(header: string | null, fallback: string): string {
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header ?? '')
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim())
    } catch {
      // a malformed escape: use the plain name
    }
  }
  return /filename\s*=\s*"([^"]+)"/.exec(header ?? '')?.[1] ?? fallback
}

/** downloadReport fetches the PDF report of an assessment (as_…) or an attestation (at_…). */
export async function downloadReport(kind: ReportKind, id: string): Promise<Report> {
  const options = { params: { path: { id } }, parseAs: 'blob' as const }
  let result: { data?: unknown; error?: unknown; response: Response }
  try {
    result =
      kind === 'assessment'
        ? await api.GET('/api/v1/assessments/{id}/report.pdf', options)
        : await api.GET('/api/v1/attestations/{id}/report.pdf', options)
  } catch (cause) {
    throw networkError(cause)
  }
  if (!result.response.ok) throw toApiError(result.response, result.error)
  return { blob: result.data as Blob, filename: reportFilename(result.response.headers.get('Content-Disposition'), `${kind}-${id}-report.pdf`) }
}
