import { api, unwrap } from '../../api/client'
import type { components } from '../../api/schema'

// The outbound destinations as the webhooks and chat pages manage them and the
// notification rules pick them: the types and the lists both need.

/** Webhook is an outbound webhook destination; its secret is never part of it. */
export type Webhook = components['schemas']['Webhook']

/** WebhookPage is one page of webhook destinations. */
export type WebhookPage = components['schemas']['PageWebhook']

/** ChatDestination is a Slack, Teams or Mattermost incoming webhook; its URL is never shown, only a hint. */
export type ChatDestination = components['schemas']['ChatDestination']

/** ChatDestinationPage is one page of chat destinations. */
export type ChatDestinationPage = components['schemas']['PageChatDestination']

/** ChatPlatform is slack, teams or mattermost. */
export type ChatPlatform = ChatDestination['platform']

/** WEBHOOK_PAGE_SIZE is how many webhook destinations one page lists. */
export const WEBHOOK_PAGE_SIZE = 50

/** CHAT_PAGE_SIZE is how many chat destinations one page lists. */
export const CHAT_PAGE_SIZE = 50

/** listWebhooks lists the webhook destinations (GET /api/v1/admin/webhooks). */
export function listWebhooks(cursor?: string): Promise<WebhookPage> {
  return unwrap(api.GET('/api/v1/admin/webhooks', { params: { query: { cursor, limit: WEBHOOK_PAGE_SIZE } } }))
}

/** listChatDestinations lists the destinations of one platform (GET /api/v1/admin/chat-destinations). */
export function listChatDestinations(platform: ChatPlatform | undefined, cursor?: string): Promise<ChatDestinationPage> {
  return unwrap(
    api.GET('/api/v1/admin/chat-destinations', { params: { query: { platform, cursor, limit: CHAT_PAGE_SIZE } } }),
  )
}
