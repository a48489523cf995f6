import { describe, expect, it } from 'vitest'
import type { Webhook } from '../../resources/destinations/api'
import { formOf, newWebhook, webhookUpdate } from './webhookForm'

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
  })
})
