// Which viewer shows an attachment, from the type the server detected in its bytes.
// Nothing the server sends is ever injected as HTML: images go into <img>, PDFs into a
// frame of their own (a blob typed application/pdf, so only the PDF viewer renders it),
// and text into <pre> as text.

/** PreviewKind is the viewer an attachment opens in, or 'none' to offer a download only. */
export type PreviewKind = 'image' | 'pdf' | 'text' | 'none'

/** IMAGE_TYPES are the raster formats browsers show safely (SVG is refused at upload). */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/bmp', 'image/avif'])

/** TEXT_TYPES are the textual formats shown as text (JSON, CSV, Markdown, XML and their kin). */
const TEXT_TYPES = new Set([
  'application/json',
  'application/ld+json',
  'application/x-ndjson',
  'application/xml',
  'application/yaml',
  'application/x-yaml',
  'application/vnd.cyclonedx+json',
  'application/vnd.cyclonedx+xml',
  'application/spdx+json',
  'application/sarif+json',
])

/** TEXT_EXTENSIONS make a generic type (octet-stream, plain text) show as text for these names. */
const TEXT_EXTENSIONS = ['.txt', '.md', '.markdown', '.csv', '.tsv', '.json', '.log', '.yaml', '.yml', '.xml', '.ndjson', '.sarif']

/** PREVIEW_TEXT_MAX_BYTES bounds the text shown in the browser; larger files are cut (and say so). */
export const PREVIEW_TEXT_MAX_BYTES = 2 * 1024 * 1024

/** PREVIEW_MAX_BYTES bounds any preview: larger files are only offered as downloads. */
export const PREVIEW_MAX_BYTES = 50 * 1024 * 1024

/** baseType is a content type without its parameters, in lower case ("text/csv; charset=utf-8" → "text/csv"). */
export function baseType(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase()
}

/** previewKind chooses the viewer for a detected content type and a file name. */
export function previewKind(contentType: string, filename = '', sizeBytes = 0): PreviewKind {
  if (sizeBytes > PREVIEW_MAX_BYTES) return 'none'
  const type = baseType(contentType)
  if (IMAGE_TYPES.has(type)) return 'image'
  if (type === 'application/pdf') return 'pdf'
  if (type === 'text/html' || type.includes('javascript') || type === 'image/svg+xml') return 'none'
  if (type.startsWith('text/') || TEXT_TYPES.has(type) || type.endsWith('+json') || type.endsWith('+xml')) return 'text'
  const name = filename.toLowerCase()
  if ((type === '' || type === 'application/octet-stream') && TEXT_EXTENSIONS.some((ext) => name.endsWith(ext))) return 'text'
  return 'none'
}

/** prettyText indents JSON for reading; anything else (or JSON that does not parse) stays as it is. */
export function prettyText(text: string, contentType: string, filename = ''): string {
  const type = baseType(contentType)
  const json = type === 'application/json' || type.endsWith('+json') || filename.toLowerCase().endsWith('.json')
  if (!json) return text
  try {
    return JSON.stringify(JSON.parse(text), null, 2)
  } catch {
    return text
  }
}
