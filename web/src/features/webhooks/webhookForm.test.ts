import { describe, expect, it } from 'vitest'
import type { Webhook } from './api'
import { inFlight, isFinal } from './deliveries'
import { formOf, newWebhook, sameEntries, urlProblem, webhookUpdate } from './webhookForm'

const webhook: Webhook = {
  id: 'wh_1',
  name: 'CI',
  description: '',
  url: 'https://ci.example.com/hook',
  eventTypes: ['user.*'],
  active: false,
  consecutiveFailures: 20,
  version: 7,
  createdBy: 'u_1',
  createdAt: '2025-03-01T09:00:00Z',
  updatedAt: '2025-03-01T09:00:00Z',
}

describe('urlProblem', () => {
  it('accepts http and https URLs with a host', () => {
    expect(urlProblem(' https://hooks.example.com/x ')).toBeNull()
    expect(urlProblem('http://127.0.0.1:8080/hook')).toBeNull()
  })

  it('names what is wrong', () => {
    expect(urlProblem('  ')).toBe('required')
    expect(urlProblem('hooks.example.com/x')).toBe('invalid')
    expect(urlProblem('ftp://example.com/x')).toBe('scheme')
    expect(urlProblem('https://user:secret@example.com/x')).toBe('credentials')
  })
})

describe('webhook requests', () => {
  it('creates with all events and active by default, without an empty description', () => {
    expect(newWebhook({ ...formOf(), name: ' CI ', url: ' https://ci.example.com/hook ' })).toEqual({
      name: 'CI',
      url: 'https://ci.example.com/hook',
      eventTypes: ['*'],
      active: true,
    })
  })

  it('updates only what changed, filters in any order', () => {
    expect(webhookUpdate(webhook, { ...formOf(webhook) })).toBeNull()
    expect(webhookUpdate(webhook, { ...formOf(webhook), active: true, description: 'Builds' })).toEqual({
      version: 7,
      description: 'Builds',
      active: true,
    })
    expect(sameEntries(['b', 'a'], ['a', 'b', 'a'])).toBe(true)
  })
})

describe('delivery states', () => {
  it('tells finished deliveries, which can be redelivered, from those in flight', () => {
    expect(['succeeded', 'failed', 'skipped'].every((status) => isFinal(status as 'failed'))).toBe(true)
    expect(isFinal('retrying')).toBe(false)
    expect(inFlight([{ status: 'succeeded' }, { status: 'pending' }])).toBe(true)
    expect(inFlight([{ status: 'succeeded' }, { status: 'skipped' }])).toBe(false)
  })
})
