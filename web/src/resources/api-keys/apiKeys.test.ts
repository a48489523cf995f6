import { describe, expect, it } from 'vitest'
import { apiKeyStatus, expiryFromDate, isPastDay } from './apiKeys'

const now = new Date('2025-03-12T12:00:00Z')

describe('apiKeyStatus', () => {
  it.each([
    ['a key without expiry', {}, 'active'],
    ['a key expiring later', { expiresAt: '2025-03-13T00:00:00Z' }, 'active'],
    ['a key past its expiry', { expiresAt: '2025-03-12T11:59:59Z' }, 'expired'],
    ['a revoked key', { revokedAt: '2025-03-01T00:00:00Z' }, 'revoked'],
    ['a revoked, expired key', { revokedAt: '2025-03-01T00:00:00Z', expiresAt: '2025-03-02T00:00:00Z' }, 'revoked'],
  ])('%s is %s', (_name, key, status) => {
    expect(apiKeyStatus(key, now)).toBe(status)
  })
})

describe('expiryFromDate', () => {
  it('is the end of the picked day in local time', () => {
    const expiry = new Date(expiryFromDate(new Date(2025, 2, 31)) ?? '')
    expect([expiry.getFullYear(), expiry.getMonth(), expiry.getDate()]).toEqual([2025, 2, 31])
    expect([expiry.getHours(), expiry.getMinutes(), expiry.getSeconds()]).toEqual([23, 59, 59])
  })

  it('leaves the expiry out when no day was picked', () => {
    expect(expiryFromDate(null)).toBeUndefined()
  })
})

describe('isPastDay', () => {
  it('offers today and later, not yesterday', () => {
    const local = new Date(2025, 2, 12, 15, 30)
    expect(isPastDay(new Date(2025, 2, 11), local)).toBe(true)
    expect(isPastDay(new Date(2025, 2, 12), local)).toBe(false)
    expect(isPastDay(new Date(2025, 2, 13), local)).toBe(false)
  })
})
