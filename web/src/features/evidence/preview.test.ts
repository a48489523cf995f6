import { describe, expect, it } from 'vitest'
import { baseType, prettyText, previewKind, PREVIEW_MAX_BYTES } from './preview'

describe('previewKind', () => {
  it.each([
    ['image/png', 'shot.png', 'image'],
    ['image/jpeg', 'photo.jpg', 'image'],
    ['image/webp', 'a.webp', 'image'],
    ['application/pdf', 'report.pdf', 'pdf'],
    ['text/plain; charset=utf-8', 'notes.txt', 'text'],
    ['text/csv', 'data.csv', 'text'],
    ['text/markdown', 'README.md', 'text'],
    ['application/json', 'sbom.json', 'text'],
    ['application/vnd.cyclonedx+json', 'bom.json', 'text'],
    ['application/xml', 'bom.xml', 'text'],
    ['application/octet-stream', 'notes.md', 'text'],
    ['application/octet-stream', 'tool.exe', 'none'],
    ['application/zip', 'logs.zip', 'none'],
    ['text/html', 'page.html', 'none'],
    ['image/svg+xml', 'logo.svg', 'none'],
    ['application/javascript', 'a.js', 'none'],
    ['', 'unknown', 'none'],
  ])('%s (%s) → %s', (type, name, kind) => {
    expect(previewKind(type, name)).toBe(kind)
  })

  it('offers no preview for files past the preview limit', () => {
    expect(previewKind('image/png', 'huge.png', PREVIEW_MAX_BYTES + 1)).toBe('none')
    expect(previewKind('image/png', 'fine.png', PREVIEW_MAX_BYTES)).toBe('image')
  })

  it('reads the base type and indents JSON only', () => {
    expect(baseType('Text/CSV; charset=UTF-8')).toBe('text/csv')
    expect(prettyText('{"a":1}', 'application/json')).toBe('{\n  "a": 1\n}')
    expect(prettyText('{"a":', 'application/json')).toBe('{"a":')
    expect(prettyText('a,b', 'text/csv')).toBe('a,b')
  })
})
