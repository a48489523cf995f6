import { describe, expect, it } from 'vitest'
import { ApiError } from '../../api/client'
import { FILE_KINDS, hasEnding, importFailure, isDownloadFailure } from './importResult'

describe('importFailure', () => {
  it('turns a refused document into errors by JSON path', () => {
    const error = new ApiError(422, 'business_rule_violation', 'The document is invalid.', 'req', [
      { field: '/definitions/standards/0/name', code: 'schema_invalid', message: 'missing property' },
      { field: '/definitions/standards/1', code: 'no_requirements', message: 'nothing to import' },
      { field: 'lines[3].parent', code: 'unknown_parent' },
    ])
    const failure = importFailure(error)
    expect(failure.kind).toBe('document')
    expect(failure.kind === 'document' && failure.errors).toEqual([
      { path: '/definitions/standards/0/name', message: 'missing property' },
      { path: '/definitions/standards/1', message: 'nothing to import' },
      { path: 'lines[3].parent', message: 'unknown_parent' },
    ])
  })

  it('says a file that is not JSON or not CycloneDX is not a CycloneDX JSON document (issue 26 item 8)', () => {
    const reason = "The file is not a CycloneDX JSON document: it is not JSON (invalid character 'h' in literal true at byte 2)."
    const notJson = new ApiError(422, 'business_rule_violation', reason, 'req', [{ field: '/', code: 'invalid_json', message: reason }])
    expect(importFailure(notJson)).toEqual({ kind: 'notCycloneDx', reason })
    const notBom = new ApiError(422, 'business_rule_violation', 'not a BOM', 'req', [{ field: '/bomFormat', code: 'not_cyclonedx', message: 'not a BOM' }])
    expect(importFailure(notBom).kind).toBe('notCycloneDx')
  })

  it('says a failed download plainly, not as errors of the document (issue 26 items 7 and 8)', () => {
    const error = new ApiError(422, 'business_rule_violation', 'The document at example.org could not be downloaded: the name does not resolve.', 'req', [
      { field: 'url', code: 'fetch_failed', message: 'The document can also be imported as a file upload.' },
    ])
    expect(importFailure(error)).toEqual({ kind: 'download', error })
    expect(isDownloadFailure(error)).toBe(true)
    const feed = new ApiError(422, 'business_rule_violation', 'The standards feed could not be reached.', 'req', [{ field: 'feed', code: 'feed_unreachable' }])
    expect(importFailure(feed).kind).toBe('download')
  })

  it('keeps any other failure, such as one without details, for an alert', () => {
    const error = new ApiError(413, 'payload_too_large', 'Too large.', 'req')
    expect(importFailure(error)).toEqual({ kind: 'call', error })
    expect(importFailure(new TypeError('offline')).kind).toBe('call')
    expect(isDownloadFailure(error)).toBe(false)
  })
})

describe('hasEnding', () => {
  it('takes the file kinds of each import, in any letter case', () => {
    expect(hasEnding({ name: 'asvs-5.0.0.cdx.JSON' }, FILE_KINDS.cyclonedx)).toBe(true)
    expect(hasEnding({ name: 'notes.txt' }, FILE_KINDS.cyclonedx)).toBe(false)
    expect(hasEnding({ name: 'rows.csv' }, FILE_KINDS.csv)).toBe(true)
  })
})
