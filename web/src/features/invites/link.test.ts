import { describe, expect, it } from 'vitest'
import { DEFAULT_EXPIRY_HOURS, inviteLink, newInvite } from './link'

describe('inviteLink', () => {
  it('opens the registration page of this installation with the token', () => {
    expect(inviteLink('https://assay.example', 'inv_abc123')).toBe('https://assay.example/register?invite=inv_abc123')
  })

  it('encodes the token as one query value and ignores a trailing slash', () => {
    expect(inviteLink('http://127.0.0.1:3193/', 'a+b/c=&d')).toBe('http://127.0.0.1:3193/register?invite=a%2Bb%2Fc%3D%26d')
  })
})

describe('newInvite', () => {
  it('leaves out an empty e-mail address', () => {
    expect(newInvite({ email: '  ', intendedRole: 'assessee', expiresInHours: DEFAULT_EXPIRY_HOURS })).toEqual({
      intendedRole: 'assessee',
      expiresInHours: 168,
    })
  })

  it('asks for the link to be e-mailed only when the box is ticked', () => {
    expect(newInvite({ email: 'ada@example.com', intendedRole: 'assessor', expiresInHours: 24, sendEmail: true })).toEqual({
      email: 'ada@example.com',
      intendedRole: 'assessor',
      expiresInHours: 24,
      sendEmail: true,
    })
    expect(newInvite({ email: 'ada@example.com', intendedRole: 'assessor', expiresInHours: 24, sendEmail: false })).not.toHaveProperty(
      'sendEmail',
    )
  })

  it('sends a trimmed e-mail address', () => {
    expect(newInvite({ email: ' ada@example.com ', intendedRole: 'assessor', expiresInHours: 24 })).toEqual({
      email: 'ada@example.com',
      intendedRole: 'assessor',
      expiresInHours: 24,
    })
  })
})
