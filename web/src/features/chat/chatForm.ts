import type { ChatDestination, ChatPlatform } from '../../resources/destinations/api'
import { sameEntries } from '../../resources/destinations/destinationForm'
import type { ChatDestinationUpdate, NewChatDestination } from './api'

/** CHAT_PLATFORMS are the chat platforms, in display order. */
export const CHAT_PLATFORMS: readonly ChatPlatform[] = ['slack', 'teams', 'mattermost']

/** isChatPlatform reports whether value names a chat platform (e.g. from the page's query). */
export function isChatPlatform(value: unknown): value is ChatPlatform {
  return (CHAT_PLATFORMS as readonly unknown[]).includes(value)
}

/** PLATFORM_SWITCH names the environment variable that switches a platform on. */
export const PLATFORM_SWITCH: Record<ChatPlatform, string> = {
  slack: 'SLACK_ENABLED',
  teams: 'TEAMS_ENABLED',
  mattermost: 'MATTERMOST_ENABLED',
}

/** ChatForm holds the create/edit dialog's values; an empty URL when editing keeps the stored one. */
export interface ChatForm {
  name: string
  channelName: string
  url: string
  eventTypes: string[]
  active: boolean
}

/** formOf fills the dialog: empty for a new destination, else from `destination` (never its URL). */
export function formOf(destination?: ChatDestination | null): ChatForm {
  if (!destination) return { name: '', channelName: '', url: '', eventTypes: ['*'], active: true }
  return {
    name: destination.name,
    channelName: destination.channelName ?? '',
    url: '',
    eventTypes: [...(destination.eventTypes ?? [])],
    active: destination.active,
  }
}

/** newChatDestination turns the dialog's values into the create request. */
export function newChatDestination(platform: ChatPlatform, form: ChatForm): NewChatDestination {
  const created: NewChatDestination = {
    platform,
    name: form.name.trim(),
    url: form.url.trim(),
    eventTypes: [...form.eventTypes],
    active: form.active,
  }
  const channelName = form.channelName.trim()
  if (channelName !== '') created.channelName = channelName
  return created
}

/**
 * chatUpdate builds the PATCH body: the version the dialog was filled from and only
 * what changed; the URL only when a new one was typed. Returns null when nothing did.
 */
export function chatUpdate(destination: ChatDestination, form: ChatForm): ChatDestinationUpdate | null {
  const update: ChatDestinationUpdate = { version: destination.version }
  const name = form.name.trim()
  const channelName = form.channelName.trim()
  const url = form.url.trim()
  if (name !== destination.name) update.name = name
  if (channelName !== (destination.channelName ?? '')) update.channelName = channelName
  if (url !== '') update.url = url
  if (!sameEntries(form.eventTypes, destination.eventTypes ?? [])) update.eventTypes = [...form.eventTypes]
  if (form.active !== destination.active) update.active = form.active
  return Object.keys(update).length === 1 ? null : update
}
