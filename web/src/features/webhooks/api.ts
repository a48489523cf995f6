import { api, unwrap } from '../../api/client'
import type { components } from '../../api/schema'
import type { Webhook } from '../../resources/destinations/api'
import { DELIVERY_PAGE_SIZE, type Delivery, type DeliveryLogApi, type DeliveryPage, type DeliveryStatusFilter } from '../../resources/destinations/deliveries'

/** NewWebhook is what the create dialog submits. */
export type NewWebhook = components['schemas']['NewWebhook']

/** WebhookUpdate is a change to a webhook; `version` is the one last read. */
export type WebhookUpdate = components['schemas']['WebhookUpdate']

/** WebhookWithSecret is a webhook with its signing secret, answered only at creation and rotation. */
export type WebhookWithSecret = components['schemas']['WebhookWithSecret']

/** fetchWebhook reads one destination afresh, e.g. after a version conflict. */
export function fetchWebhook(id: string): Promise<Webhook> {
  return unwrap(api.GET('/api/v1/admin/webhooks/{id}', { params: { path: { id } } }))
}

/** createWebhook adds a destination (201); only this answer holds its signing secret. */
export function createWebhook(webhook: NewWebhook): Promise<WebhookWithSecret> {
  return unwrap(api.POST('/api/v1/admin/webhooks', { body: webhook }))
}

/** updateWebhook changes a destination; `active: true` re-enables one and clears its failures. */
export function updateWebhook(id: string, update: WebhookUpdate): Promise<Webhook> {
  return unwrap(api.PATCH('/api/v1/admin/webhooks/{id}', { params: { path: { id } }, body: update }))
}

/** rotateWebhookSecret replaces the signing secret; the answer holds the new one, shown once. */
export function rotateWebhookSecret(id: string): Promise<WebhookWithSecret> {
  return unwrap(api.POST('/api/v1/admin/webhooks/{id}/rotate-secret', { params: { path: { id } } }))
}

/** deleteWebhook removes a destination (204). */
export async function deleteWebhook(id: string): Promise<void> {
  await unwrap(api.DELETE('/api/v1/admin/webhooks/{id}', { params: { path: { id } } }))
}

/** testWebhook queues a channel.test delivery to this destination only (202). */
export function testWebhook(id: string): Promise<Delivery> {
  return unwrap(api.POST('/api/v1/admin/webhooks/{id}/test', { params: { path: { id } } }))
}

/** webhookDeliveries is the delivery log of one webhook destination. */
export function webhookDeliveries(id: string): DeliveryLogApi {
  return {
    list: (status: DeliveryStatusFilter, cursor?: string): Promise<DeliveryPage> =>
      unwrap(
        api.GET('/api/v1/admin/webhooks/{id}/deliveries', {
          params: { path: { id }, query: { status: status || undefined, cursor, limit: DELIVERY_PAGE_SIZE } },
        }),
      ),
    get: (deliveryId) =>
      unwrap(api.GET('/api/v1/admin/webhooks/{id}/deliveries/{deliveryId}', { params: { path: { id, deliveryId } } })),
    redeliver: (deliveryId) =>
      unwrap(
        api.POST('/api/v1/admin/webhooks/{id}/deliveries/{deliveryId}/redeliver', { params: { path: { id, deliveryId } } }),
      ),
  }
}
