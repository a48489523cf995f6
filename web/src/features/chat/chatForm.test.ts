import { describe, expect, it } from 'vitest'
import type { ChatDestination } from '../../resources/destinations/api'
import { chatUpdate, formOf, isChatPlatform, newChatDestination } from './chatForm'

const destination: ChatDestination = {
  id: 'ch_1',
  platform: 'slack',
  name: 'Releases',
  channelName: '#releases',
  urlHint: 'https://hooks.slack.com/…XyZ9',
  eventTypes: ['*'],
  active: true,
  consecutiveFailures: 0,
  version: 2,
  createdBy: 'u_1',
  createdAt: '2025-03-01T09:00:00Z',
  updatedAt: '2025-03-01T09:00:00Z',
}

describe('chat destination requests', () => {
  it('creates for the tab’s platform', () => {
    expect(newChatDestination('teams', { ...formOf(), name: 'Ops', url: ' https://x.webhook.office.com/a ' })).toEqual({
      platform: 'teams',
      name: 'Ops',
      url: 'https://x.webhook.office.com/a',
      eventTypes: ['*'],
      active: true,
    })
  })

  it('never fills in the stored URL, and keeps it while the field stays empty', () => {
    expect(formOf(destination).url).toBe('')
    expect(chatUpdate(destination, formOf(destination))).toBeNull()
    expect(chatUpdate(destination, { ...formOf(destination), channelName: '' })).toEqual({ version: 2, channelName: '' })
    expect(chatUpdate(destination, { ...formOf(destination), url: 'https://hooks.slack.com/services/new' })).toEqual({
      version: 2,
      url: 'https://hooks.slack.com/services/new',
    })
  })

  it('knows the platforms', () => {
    expect(isChatPlatform('mattermost')).toBe(true)
    expect(isChatPlatform('discord')).toBe(false)
    expect(isChatPlatform(undefined)).toBe(false)
  })
})
