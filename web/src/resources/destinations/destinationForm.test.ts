import { describe, expect, it } from 'vitest'
import { inFlight, isFinal } from './deliveries'
import { sameEntries, urlProblem } from './destinationForm'

describe('urlProblem', () => {
  it('accepts http and https URLs with a host', () => {
    expect(urlProblem(' https://hooks.example.com/x ')).toBeNull()
    expect(urlProblem('http://127.0.0.1:8080/hook')).toBeNull()
  })

  it('names what is wrong', () => {
    expect(urlProblem('  ')).toBe('required')
    expect(urlProblem('hooks.example.com/x')).toBe('invalid')
    expect(urlProblem('ftp://example.com/x')).toBe('scheme')
    expect(urlProblem('https://user:secret@example.com/x')).toBe('credentials')
  })
})

describe('sameEntries', () => {
  it('compares filters in any order', () => {
    expect(sameEntries(['b', 'a'], ['a', 'b', 'a'])).toBe(true)
    expect(sameEntries(['a'], ['a', 'b'])).toBe(false)
  })
})

describe('delivery states', () => {
  it('tells finished deliveries, which can be redelivered, from those in flight', () => {
    expect(['succeeded', 'failed', 'skipped'].every((status) => isFinal(status as 'failed'))).toBe(true)
    expect(isFinal('retrying')).toBe(false)
    expect(inFlight([{ status: 'succeeded' }, { status: 'pending' }])).toBe(true)
    expect(inFlight([{ status: 'succeeded' }, { status: 'skipped' }])).toBe(false)
  })
})
