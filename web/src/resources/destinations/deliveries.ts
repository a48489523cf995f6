import type { components } from '../../api/schema'

/** Delivery is one message to one destination: a webhook POST, a chat post or an e-mail. */
export type Delivery = components['schemas']['Delivery']

/** DeliveryAttempt is one try of a delivery. */
export type DeliveryAttempt = components['schemas']['DeliveryAttempt']

/** DeliveryPage is one page of a delivery log, newest first. */
export type DeliveryPage = components['schemas']['PageDelivery']

/** DeliveryStatus is the state of a delivery. */
export type DeliveryStatus = Delivery['status']

/** DeliveryStatusFilter narrows a delivery log to one state; '' lists all. */
export type DeliveryStatusFilter = DeliveryStatus | ''

/** DELIVERY_PAGE_SIZE is how many deliveries one page of a delivery log lists. */
export const DELIVERY_PAGE_SIZE = 20

/** DELIVERY_STATUSES lists the states in the order a delivery passes through them. */
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'retrying', 'succeeded', 'failed', 'skipped']

/** DeliveryLogApi reads one delivery log and redelivers from it (webhook, chat destination or e-mail). */
export interface DeliveryLogApi {
  /** list lists the deliveries, newest first, optionally only those in one state. */
  list(status: DeliveryStatusFilter, cursor?: string): Promise<DeliveryPage>
  /** get reads one delivery with its attempt log (and, for webhooks, the payload). */
  get(id: string): Promise<Delivery>
  /** redeliver queues a finished delivery again under the same id. */
  redeliver(id: string): Promise<Delivery>
}

/** isFinal reports whether a delivery is finished, so it can be redelivered. */
export function isFinal(status: DeliveryStatus): boolean {
  return status === 'succeeded' || status === 'failed' || status === 'skipped'
}

/** inFlight reports whether any delivery of a list still waits for an attempt. */
export function inFlight(deliveries: readonly Pick<Delivery, 'status'>[]): boolean {
  return deliveries.some((delivery) => !isFinal(delivery.status))
}

/** STATUS_TAG is the Element Plus tag type of each state. */
export const STATUS_TAG: Record<DeliveryStatus, 'primary' | 'success' | 'info' | 'warning' | 'danger'> = {
  pending: 'primary',
  retrying: 'warning',
  succeeded: 'success',
  failed: 'danger',
  skipped: 'info',
}
