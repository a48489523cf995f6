import type { NewWebhook, Webhook, WebhookUpdate } from './api'

/** NAME_MAX_LENGTH, DESCRIPTION_MAX_LENGTH and URL_MAX_LENGTH are the server's limits. */
export const NAME_MAX_LENGTH = 200
export const DESCRIPTION_MAX_LENGTH = 2000
export const URL_MAX_LENGTH = 2000

/** UrlProblem names what is wrong with a destination URL. */
export type UrlProblem = 'required' | 'invalid' | 'scheme' | 'credentials' | null

/**
 * urlProblem checks a destination URL the way the server starts to: present, an
 * absolute http(s) URL with a host and without user:password. Whether the address
 * may be reached (private networks, plain http) only the server can tell.
 */
export function urlProblem(value: string): UrlProblem {
  const trimmed = value.trim()
  if (trimmed === '') return 'required'
  let parsed: URL
  try {
    parsed = new URL(trimmed)
  } catch {
    return 'invalid'
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'scheme'
  if (parsed.hostname === '') return 'invalid'
  if (parsed.username !== '' || parsed.password !== '') return 'credentials'
  return null
}

/** sameEntries compares two event filters regardless of order. */
export function sameEntries(a: readonly string[], b: readonly string[]): boolean {
  const left = [...new Set(a)].sort()
  const right = [...new Set(b)].sort()
  return left.length === right.length && left.every((entry, index) => entry === right[index])
}

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
