import { describe, expect, it } from 'vitest'
import { signedInAssessee } from '../../app/session/fixtures'
import { profileUpdate } from './api'

const user = signedInAssessee.user

describe('profileUpdate', () => {
  it('sends only the changed display name with the version', () => {
    expect(profileUpdate(user, { displayName: 'Grace B. Hopper', email: user.email })).toEqual({
      version: user.version,
      displayName: 'Grace B. Hopper',
    })
  })

  it('sends only the changed e-mail address, trimmed, with the version', () => {
    expect(profileUpdate(user, { displayName: user.displayName, email: ' grace@navy.mil ' })).toEqual({
      version: user.version,
      email: 'grace@navy.mil',
    })
  })

  it('sends both when both changed', () => {
    expect(profileUpdate(user, { displayName: 'G. Hopper', email: 'g@example.com' })).toEqual({
      version: user.version,
      displayName: 'G. Hopper',
      email: 'g@example.com',
    })
  })

  it('is null when nothing changed but whitespace', () => {
    expect(profileUpdate(user, { displayName: ` ${user.displayName} `, email: user.email })).toBeNull()
  })
})
