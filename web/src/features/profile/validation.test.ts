import { describe, expect, it } from 'vitest'
import { fieldOfDetail, passwordFormProblems, type PasswordForm } from './validation'

const valid: PasswordForm = {
  currentPassword: 'old password 123',
  newPassword: 'a brand new passphrase',
  confirmation: 'a brand new passphrase',
}

describe('passwordFormProblems', () => {
  it('accepts a complete, matching, long enough new password', () => {
    expect(passwordFormProblems(valid, 12)).toEqual({ currentPassword: null, newPassword: null, confirmation: null })
  })

  it('requires every field', () => {
    expect(passwordFormProblems({ currentPassword: '', newPassword: '', confirmation: '' }, 12)).toEqual({
      currentPassword: 'required',
      newPassword: 'required',
      confirmation: 'required',
    })
  })

  it('takes the current password as typed, spaces included', () => {
    expect(passwordFormProblems({ ...valid, currentPassword: '   ' }, 12).currentPassword).toBeNull()
  })

  it('applies the server minimum, counting characters as people see them', () => {
    expect(passwordFormProblems({ ...valid, newPassword: 'short', confirmation: 'short' }, 12).newPassword).toBe('tooShort')
    expect(passwordFormProblems({ ...valid, newPassword: '🔑'.repeat(12), confirmation: '🔑'.repeat(12) }, 12).newPassword).toBeNull()
    expect(passwordFormProblems({ ...valid, newPassword: '🔑'.repeat(6), confirmation: '🔑'.repeat(6) }, 12).newPassword).toBe('tooShort')
  })

  it('refuses a new password identical to the current one', () => {
    const same = { ...valid, newPassword: valid.currentPassword, confirmation: valid.currentPassword }
    expect(passwordFormProblems(same, 12).newPassword).toBe('unchanged')
  })

  it('refuses a confirmation that does not match', () => {
    expect(passwordFormProblems({ ...valid, confirmation: `${valid.newPassword}!` }, 12).confirmation).toBe('mismatch')
  })
})

describe('fieldOfDetail', () => {
  it.each([
    ['currentPassword', 'currentPassword'],
    ['password', 'newPassword'],
    ['newPassword', 'newPassword'],
    ['body.newPassword', 'newPassword'],
    ['body.currentPassword', 'currentPassword'],
  ])('shows a problem with %s on the %s field', (field, expected) => {
    expect(fieldOfDetail({ field, message: 'x' })).toBe(expected)
  })

  it.each([undefined, '', 'username', 'body'])('has no field for %s', (field) => {
    expect(fieldOfDetail({ field, message: 'x' })).toBeNull()
  })
})
