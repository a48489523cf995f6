import { describe, expect, it } from 'vitest'
import { signedInAssessee } from '../../app/session/fixtures'
import { editOf, userQuery, userUpdate } from './filters'

const grace = signedInAssessee.user

describe('userQuery', () => {
  it('sends only the filters that narrow the list', () => {
    expect(userQuery({ q: '  ', active: '', role: '' })).toEqual({ limit: 50 })
    expect(userQuery({ q: ' grace ', active: 'false', role: 'assessee' }, 'c2')).toEqual({
      q: 'grace',
      active: 'false',
      role: 'assessee',
      cursor: 'c2',
      limit: 50,
    })
  })
})

describe('userUpdate', () => {
  it('is null when nothing changed, roles in any order', () => {
    expect(userUpdate(grace, { ...editOf(grace), roles: ['auditors', 'assessee'] })).toBeNull()
  })

  it('sends the version read and only the changed fields', () => {
    expect(userUpdate(grace, { ...editOf(grace), displayName: ' Rear Admiral Hopper ', active: false })).toEqual({
      version: 3,
      displayName: 'Rear Admiral Hopper',
      active: false,
    })
    expect(userUpdate(grace, { ...editOf(grace), roles: ['assessee'] })).toEqual({ version: 3, roles: ['assessee'] })
  })
})
