import { describe, expect, it } from 'vitest'
import { catalogue } from '../events/fixtures'
import type { NotificationRule } from './api'
import { formOf, newRule, parseEmails, receivableTypes, ruleProblems, ruleUpdate, type RuleForm } from './ruleForm'

const rule: NotificationRule = {
  id: 'nr_1',
  scope: 'global',
  name: 'Security',
  eventTypes: ['user.*'],
  channels: { inApp: true, email: false, webhookIds: ['wh_1'], chatIds: [] },
  roles: ['admin'],
  emails: ['sec@example.com'],
  enabled: true,
  warnings: [],
  version: 4,
  createdAt: '2025-03-01T09:00:00Z',
  updatedAt: '2025-03-01T09:00:00Z',
}

function form(overrides: Partial<RuleForm> = {}): RuleForm {
  return { ...formOf(), name: 'Mine', eventTypes: ['user.created'], ...overrides }
}

describe('parseEmails', () => {
  it('splits on commas, semicolons and line breaks, and drops blanks and repeats', () => {
    expect(parseEmails(' a@example.com,b@example.com;\n\na@example.com  c@example.com ')).toEqual([
      'a@example.com',
      'b@example.com',
      'c@example.com',
    ])
    expect(parseEmails('  ')).toEqual([])
  })
})

describe('ruleProblems', () => {
  it('needs a name and at least one event type', () => {
    expect(ruleProblems(form({ name: '  ', eventTypes: [] }), 'personal')).toEqual({ name: 'required', eventTypes: 'required' })
  })

  it('needs in-app or e-mail for a personal rule', () => {
    expect(ruleProblems(form({ inApp: false, email: false }), 'personal')).toEqual({ channels: 'required' })
    expect(ruleProblems(form({ inApp: false, email: true }), 'personal')).toEqual({})
  })

  it('needs someone to receive a global rule', () => {
    // In-app alone reaches nobody without roles.
    expect(ruleProblems(form({ inApp: true }), 'global')).toEqual({ channels: 'required' })
    expect(ruleProblems(form({ inApp: true, roles: ['admin'] }), 'global')).toEqual({})
    // Roles receive nothing without in-app or e-mail.
    expect(ruleProblems(form({ inApp: false, roles: ['admin'] }), 'global')).toEqual({ channels: 'required' })
    expect(ruleProblems(form({ inApp: false, emails: 'ops@example.com' }), 'global')).toEqual({})
    expect(ruleProblems(form({ inApp: false, webhookIds: ['wh_1'] }), 'global')).toEqual({})
    expect(ruleProblems(form({ inApp: false, chatIds: ['ch_1'] }), 'global')).toEqual({})
  })

  it('names the first address that is not one', () => {
    expect(ruleProblems(form({ roles: ['admin'], emails: 'ok@example.com, nope, also bad' }), 'global')).toEqual({
      emails: { invalid: 'nope' },
    })
  })
})

describe('newRule', () => {
  it('sends a global rule with its targets', () => {
    expect(newRule(form({ roles: ['admin'], emails: 'ops@example.com', webhookIds: ['wh_1'], name: ' Ops ' }), 'global')).toEqual({
      name: 'Ops',
      eventTypes: ['user.created'],
      channels: { inApp: true, email: false, webhookIds: ['wh_1'], chatIds: [] },
      roles: ['admin'],
      emails: ['ops@example.com'],
      enabled: true,
    })
  })

  it('sends a personal rule without targets, whatever the form holds', () => {
    expect(newRule(form({ email: true, roles: ['admin'], emails: 'x@example.com', chatIds: ['ch_1'] }), 'personal')).toEqual({
      name: 'Mine',
      eventTypes: ['user.created'],
      channels: { inApp: true, email: true, webhookIds: [], chatIds: [] },
      roles: [],
      emails: [],
      enabled: true,
    })
  })
})

describe('ruleUpdate', () => {
  it('is null when nothing changed', () => {
    expect(ruleUpdate(rule, formOf(rule), 'global')).toBeNull()
  })

  it('sends the version and only what changed, the channels as a whole', () => {
    expect(ruleUpdate(rule, { ...formOf(rule), email: true, enabled: false }, 'global')).toEqual({
      version: 4,
      channels: { inApp: true, email: true, webhookIds: ['wh_1'], chatIds: [] },
      enabled: false,
    })
    expect(ruleUpdate(rule, { ...formOf(rule), emails: 'sec@example.com\nops@example.com', eventTypes: ['*'] }, 'global')).toEqual({
      version: 4,
      eventTypes: ['*'],
      emails: ['sec@example.com', 'ops@example.com'],
    })
  })
})

describe('receivableTypes', () => {
  it('keeps the types whose permission the user holds', () => {
    const held = new Set(['admin.users'])
    expect(receivableTypes(catalogue, (permission) => held.has(permission)).map((type) => type.type)).toEqual([
      'user.created',
      'user.updated',
    ])
  })
})
