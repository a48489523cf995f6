import { describe, expect, it } from 'vitest'
import { badgeText } from './badge'

describe('badgeText', () => {
  it('hides the badge when nothing is unread', () => {
    expect(badgeText(0)).toBe('')
    expect(badgeText(-3)).toBe('')
    expect(badgeText(Number.NaN)).toBe('')
  })

  it('shows the count up to 99 and caps it beyond', () => {
    expect(badgeText(1)).toBe('1')
    expect(badgeText(99)).toBe('99')
    expect(badgeText(100)).toBe('99+')
    expect(badgeText(12_345)).toBe('99+')
  })
})
