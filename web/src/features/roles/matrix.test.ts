import { describe, expect, it } from 'vitest'
import type { Role } from '../../resources/roles/api'
import type { Permission } from './api'
import { groupPermissions, groupState, ROLE_NAME_PATTERN, roleUpdate, sameKeys, setGroup, setPermission } from './matrix'

const catalogue: Permission[] = [
  { key: 'projects.view', category: 'projects', description: 'See projects' },
  { key: 'admin.users', category: 'admin', description: 'Manage users' },
  { key: 'projects.create', category: 'projects', description: 'Create projects' },
  { key: 'admin.audit', category: 'admin', description: 'Read the audit log' },
]
const [projects, admin] = groupPermissions(catalogue)

const role: Role = {
  id: 'r_1',
  name: 'auditor',
  description: 'Reads the log',
  builtin: false,
  permissions: ['admin.audit'],
  version: 4,
}

describe('the permission matrix', () => {
  it('groups the catalogue by category in the server order', () => {
    expect(groupPermissions(catalogue).map((group) => [group.category, group.permissions.map((p) => p.key)])).toEqual([
      ['projects', ['projects.view', 'projects.create']],
      ['admin', ['admin.users', 'admin.audit']],
    ])
  })

  it('says whether a category is granted fully, partly or not at all', () => {
    expect(groupState(['projects.view', 'projects.create'], projects!)).toBe('all')
    expect(groupState(['projects.view', 'admin.audit'], projects!)).toBe('some')
    expect(groupState(['admin.audit'], projects!)).toBe('none')
  })

  it('selects and clears a whole category without touching the others', () => {
    const selected = setGroup(['admin.audit', 'projects.view'], projects!, true)
    expect(selected.sort()).toEqual(['admin.audit', 'projects.create', 'projects.view'])
    expect(setGroup(selected, projects!, false)).toEqual(['admin.audit'])
    expect(groupState(setGroup([], admin!, true), admin!)).toBe('all')
  })

  it('selects and clears one permission without duplicates', () => {
    expect(setPermission(['admin.audit'], 'admin.audit', true)).toEqual(['admin.audit'])
    expect(setPermission(['admin.audit', 'admin.users'], 'admin.audit', false)).toEqual(['admin.users'])
  })

  it('compares selections regardless of order', () => {
    expect(sameKeys(['a', 'b'], ['b', 'a'])).toBe(true)
    expect(sameKeys(['a'], ['a', 'b'])).toBe(false)
  })
})

describe('roleUpdate', () => {
  it('sends the version and only what changed', () => {
    expect(roleUpdate(role, { name: 'auditor', description: ' Reads the log ', permissions: ['admin.audit'] })).toBeNull()
    expect(roleUpdate(role, { name: 'auditor', description: 'Reads the log', permissions: ['admin.users', 'admin.audit'] })).toEqual({
      version: 4,
      permissions: ['admin.audit', 'admin.users'],
    })
    expect(roleUpdate(role, { name: 'auditor', description: 'Audits', permissions: ['admin.audit'] })).toEqual({
      version: 4,
      description: 'Audits',
    })
  })
})

describe('ROLE_NAME_PATTERN', () => {
  it.each([
    ['auditor', true],
    ['qa_lead2', true],
    ['Auditor', false],
    ['a', false],
    ['2fa', false],
    ['team-lead', false],
  ])('%s → %s', (name, ok) => {
    expect(ROLE_NAME_PATTERN.test(name)).toBe(ok)
  })
})
