import type { Webhook } from '../../resources/destinations/api'
import { sameEntries } from '../../resources/destinations/destinationForm'
import type { NewWebhook, WebhookUpdate } from './api'

/** DESCRIPTION_MAX_LENGTH is the server's limit for a webhook's description. */
export const DESCRIPTION_MAX_LENGTH = 2000

/** WebhookForm holds the create/edit dialog's values. */
export interface WebhookForm {
  name: string
  description: string
  url: string
  eventTypes: string[]
  active: boolean
}

/** formOf fills the dialog: empty for a new destination (all events, active), else from `webhook`. */
export function formOf(webhook?: Webhook | null): WebhookForm {
  if (!webhook) return { name: '', description: '', url: '', eventTypes: ['*'], active: true }
  return {
    name: webhook.name,
    description: webhook.description ?? '',
    url: webhook.url,
    eventTypes: [...(webhook.eventTypes ?? [])],
    active: webhook.active,
  }
}

/** newWebhook turns the dialog's values into the create request, trimmed; no description is left out. */
export function newWebhook(form: WebhookForm): NewWebhook {
  const created: NewWebhook = {
    name: form.name.trim(),
    url: form.url.trim(),
    eventTypes: [...form.eventTypes],
    active: form.active,
  }
  const description = form.description.trim()
  if (description !== '') created.description = description
  return created
}

/**
 * webhookUpdate builds the PATCH body: the version the dialog was filled from and
 * only what changed. Returns null when nothing did.
 */
export function webhookUpdate(webhook: Webhook, form: WebhookForm): WebhookUpdate | null {
  const update: WebhookUpdate = { version: webhook.version }
  const name = form.name.trim()
  const description = form.description.trim()
  const url = form.url.trim()
  if (name !== webhook.name) update.name = name
  if (description !== (webhook.description ?? '')) update.description = description
  if (url !== webhook.url) update.url = url
  if (!sameEntries(form.eventTypes, webhook.eventTypes ?? [])) update.eventTypes = [...form.eventTypes]
  if (form.active !== webhook.active) update.active = form.active
  return Object.keys(update).length === 1 ? null : update
}
