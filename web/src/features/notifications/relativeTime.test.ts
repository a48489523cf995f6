import { describe, expect, it } from 'vitest'
import { formatRelativeTime, relativeTime } from './relativeTime'

const now = new Date('2025-03-12T12:00:00Z')
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString()
const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

describe('relativeTime', () => {
  it('says "just now" under a minute and for a clock running ahead', () => {
    expect(relativeTime(ago(0), now)).toEqual({ kind: 'justNow' })
    expect(relativeTime(ago(59_999), now)).toEqual({ kind: 'justNow' })
    expect(relativeTime(ago(-5 * MINUTE), now)).toEqual({ kind: 'justNow' })
    expect(relativeTime('not a date', now)).toEqual({ kind: 'justNow' })
  })

  it('counts whole minutes, hours and days', () => {
    expect(relativeTime(ago(MINUTE), now)).toEqual({ kind: 'ago', value: 1, unit: 'minute' })
    expect(relativeTime(ago(59 * MINUTE + 59_000), now)).toEqual({ kind: 'ago', value: 59, unit: 'minute' })
    expect(relativeTime(ago(HOUR), now)).toEqual({ kind: 'ago', value: 1, unit: 'hour' })
    expect(relativeTime(ago(23 * HOUR + 59 * MINUTE), now)).toEqual({ kind: 'ago', value: 23, unit: 'hour' })
    expect(relativeTime(ago(DAY), now)).toEqual({ kind: 'ago', value: 1, unit: 'day' })
    expect(relativeTime(ago(6 * DAY + 23 * HOUR), now)).toEqual({ kind: 'ago', value: 6, unit: 'day' })
  })

  it('gives the date from a week on', () => {
    expect(relativeTime(ago(7 * DAY), now)).toEqual({ kind: 'date' })
  })
})

describe('formatRelativeTime', () => {
  it('speaks the viewer’s language', () => {
    expect(formatRelativeTime(ago(10_000), now, 'en', 'just now')).toBe('just now')
    expect(formatRelativeTime(ago(5 * MINUTE), now, 'en', 'just now')).toBe('5 minutes ago')
    expect(formatRelativeTime(ago(HOUR), now, 'en', 'just now')).toBe('1 hour ago')
    expect(formatRelativeTime(ago(3 * DAY), now, 'de', 'gerade eben')).toBe('vor 3 Tagen')
  })

  it('shows an old notification’s date', () => {
    const value = '2025-01-02T09:00:00Z'
    expect(formatRelativeTime(value, now, 'en', 'just now')).toBe(
      new Intl.DateTimeFormat('en', { dateStyle: 'medium' }).format(new Date(value)),
    )
  })
})
