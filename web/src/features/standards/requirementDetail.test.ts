import { describe, expect, it } from 'vitest'
import { requirement } from './components/fixtures'
import { detailFormOf, detailUpdate, isHttpUrl, openCreProblem, openCreUrl, urlProblem } from './requirementDetail'

describe('requirement detail', () => {
  it('links an OpenCRE id to its page, with or without the CRE: prefix', () => {
    expect(openCreUrl('CRE:764-507')).toBe('https://www.opencre.org/cre/764-507')
    expect(openCreUrl(' 227-045 ')).toBe('https://www.opencre.org/cre/227-045')
    expect(openCreUrl('CRE:a/b')).toBe('https://www.opencre.org/cre/a%2Fb')
  })

  it('tells http and https URLs from others', () => {
    expect(isHttpUrl('https://example.com/x')).toBe(true)
    expect(isHttpUrl('http://example.com')).toBe(true)
    expect(['javascript:alert(1)', 'ftp://example.com', 'example.com', '/relative', ''].some(isHttpUrl)).toBe(false)
  })

  it('checks OpenCRE ids loosely', () => {
    expect(openCreProblem(['CRE:764-507', '227-045'])).toBeNull()
    expect(openCreProblem(['CRE:1 2'])).toEqual({ problem: 'invalid', id: 'CRE:1 2' })
    expect(openCreProblem(['x'.repeat(65)])?.problem).toBe('invalid')
    expect(openCreProblem(['CRE:1', 'CRE:1'])).toEqual({ problem: 'duplicate', id: 'CRE:1' })
    expect(openCreProblem(Array.from({ length: 51 }, (_, i) => `CRE:${i}`))?.problem).toBe('tooMany')
  })

  it('accepts only http and https for new reference URLs, keeping those already there', () => {
    const existing = new Set(['urn:isbn:1'])
    expect(urlProblem(' ', existing)).toBe('required')
    expect(urlProblem('ftp://x', existing)).toBe('invalid')
    expect(urlProblem('urn:isbn:1', existing)).toBeNull()
    expect(urlProblem('https://x.example', existing)).toBeNull()
  })

  it('sends only what changed, with the version', () => {
    const base = { ...requirement('a', null, 'V1'), version: 3, openCre: ['CRE:1'] }
    const form = detailFormOf(base)
    expect(detailUpdate(base, form)).toBeNull()
    form.description = 'New\ntext'
    form.openCre.push('CRE:2')
    expect(detailUpdate(base, form)).toEqual({ version: 3, description: 'New\ntext', openCre: ['CRE:1', 'CRE:2'] })
  })
})
