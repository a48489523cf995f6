import { describe, expect, it } from 'vitest'
import type { EmailSettings } from './api'
import { emailSettingsUpdate, formOf, fromEnvironment, sourceOf } from './emailForm'

const settings: EmailSettings = {
  enabled: true,
  host: 'smtp.example.com',
  port: 587,
  secure: false,
  username: 'assay',
  passwordSet: true,
  from: 'Assay <assay@example.com>',
  tlsRejectUnauthorized: true,
  sources: { enabled: 'environment', host: 'environment', port: 'stored', password: 'stored', from: 'default' },
  version: 3,
}

describe('sources', () => {
  it('says where each value comes from, default when unnamed', () => {
    expect(sourceOf(settings, 'host')).toBe('environment')
    expect(sourceOf(settings, 'port')).toBe('stored')
    expect(sourceOf(settings, 'secure')).toBe('default')
    expect(fromEnvironment(settings, 'enabled')).toBe(true)
    expect(fromEnvironment(settings, 'from')).toBe(false)
  })
})

describe('emailSettingsUpdate', () => {
  it('is null when nothing changed, and the password field starts empty', () => {
    expect(formOf(settings).password).toBe('')
    expect(emailSettingsUpdate(settings, formOf(settings))).toBeNull()
  })

  it('never sends what the environment sets', () => {
    expect(emailSettingsUpdate(settings, { ...formOf(settings), host: 'other.example.com', enabled: false })).toBeNull()
  })

  it('sends changed fields, a new password, or an empty one to clear it', () => {
    expect(emailSettingsUpdate(settings, { ...formOf(settings), port: 465, secure: true })).toEqual({
      version: 3,
      port: 465,
      secure: true,
    })
    expect(emailSettingsUpdate(settings, { ...formOf(settings), password: 'hunter2' })).toEqual({ version: 3, password: 'hunter2' })
    expect(emailSettingsUpdate(settings, { ...formOf(settings), clearPassword: true })).toEqual({ version: 3, password: '' })
  })
})
