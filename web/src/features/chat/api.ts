import { api, unwrap } from '../../api/client'
import type { components } from '../../api/schema'
import type { ChatDestination } from '../../resources/destinations/api'
import {
  DELIVERY_PAGE_SIZE,
  type Delivery,
  type DeliveryLogApi,
  type DeliveryPage,
  type DeliveryStatusFilter,
} from '../../resources/destinations/deliveries'

/** NewChatDestination is what the create dialog submits. */
export type NewChatDestination = components['schemas']['NewChatDestination']

/** ChatDestinationUpdate is a change to a chat destination; `version` is the one last read. */
export type ChatDestinationUpdate = components['schemas']['ChatDestinationUpdate']

/** fetchChatDestination reads one destination afresh, e.g. after a version conflict. */
export function fetchChatDestination(id: string): Promise<ChatDestination> {
  return unwrap(api.GET('/api/v1/admin/chat-destinations/{id}', { params: { path: { id } } }))
}

/** createChatDestination adds a destination (201). */
export function createChatDestination(destination: NewChatDestination): Promise<ChatDestination> {
  return unwrap(api.POST('/api/v1/admin/chat-destinations', { body: destination }))
}

/** updateChatDestination changes a destination; `active: true` re-enables one and clears its failures. */
export function updateChatDestination(id: string, update: ChatDestinationUpdate): Promise<ChatDestination> {
  return unwrap(api.PATCH('/api/v1/admin/chat-destinations/{id}', { params: { path: { id } }, body: update }))
}

/** deleteChatDestination removes a destination (204). */
export async function deleteChatDestination(id: string): Promise<void> {
  await unwrap(api.DELETE('/api/v1/admin/chat-destinations/{id}', { params: { path: { id } } }))
}

/** testChatDestination queues a test message to this destination only (202). */
export function testChatDestination(id: string): Promise<Delivery> {
  return unwrap(api.POST('/api/v1/admin/chat-destinations/{id}/test', { params: { path: { id } } }))
}

/** chatDeliveries is the delivery log of one chat destination. */
export function chatDeliveries(id: string): DeliveryLogApi {
  return {
    list: (status: DeliveryStatusFilter, cursor?: string): Promise<DeliveryPage> =>
      unwrap(
        api.GET('/api/v1/admin/chat-destinations/{id}/deliveries', {
          params: { path: { id }, query: { status: status || undefined, cursor, limit: DELIVERY_PAGE_SIZE } },
        }),
      ),
    get: (deliveryId) =>
      unwrap(
        api.GET('/api/v1/admin/chat-destinations/{id}/deliveries/{deliveryId}', { params: { path: { id, deliveryId } } }),
      ),
    redeliver: (deliveryId) =>
      unwrap(
        api.POST('/api/v1/admin/chat-destinations/{id}/deliveries/{deliveryId}/redeliver', {
          params: { path: { id, deliveryId } },
        }),
      ),
  }
}
