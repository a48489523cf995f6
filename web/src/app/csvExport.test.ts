import { describe, expect, it } from 'vitest'
import { csvExportHref } from './csvExport'

describe('csvExportHref', () => {
  it('carries the filters and sort, never the paging', () => {
    expect(csvExportHref('/api/v1/assessments.csv', { state: 'complete', q: 'pay ment', limit: 50, cursor: 'abc', sort: '-createdAt' })).toBe(
      '/api/v1/assessments.csv?state=complete&q=pay+ment&sort=-createdAt',
    )
  })
  it('leaves out empty values and repeats arrays', () => {
    expect(csvExportHref('/api/v1/evidence.csv', { q: '', tag: ['a', 'b'], mine: true, x: undefined })).toBe('/api/v1/evidence.csv?tag=a&tag=b&mine=true')
    expect(csvExportHref('/api/v1/audit.csv', undefined)).toBe('/api/v1/audit.csv')
  })
})
