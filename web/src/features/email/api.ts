import { api, unwrap } from '../../api/client'
import type { components } from '../../api/schema'
import {
  DELIVERY_PAGE_SIZE,
  type Delivery,
  type DeliveryLogApi,
  type DeliveryPage,
  type DeliveryStatusFilter,
} from '../../resources/destinations/deliveries'

/** EmailSettings is the effective SMTP configuration with the source of each field; never the password. */
export type EmailSettings = components['schemas']['EmailSettings']

/** EmailSettingsUpdate stores SMTP settings; fields the environment sets cannot be stored. */
export type EmailSettingsUpdate = components['schemas']['EmailSettingsUpdate']

/** fetchEmailSettings reads the effective settings (GET /api/v1/admin/email/settings). */
export function fetchEmailSettings(): Promise<EmailSettings> {
  return unwrap(api.GET('/api/v1/admin/email/settings'))
}

/** updateEmailSettings stores settings (PATCH /api/v1/admin/email/settings); a stale version answers 409. */
export function updateEmailSettings(update: EmailSettingsUpdate): Promise<EmailSettings> {
  return unwrap(api.PATCH('/api/v1/admin/email/settings', { body: update }))
}

/** sendTestEmail queues a test message (202); without `to` it goes to the caller's own address. */
export function sendTestEmail(to?: string): Promise<Delivery> {
  return unwrap(api.POST('/api/v1/admin/email/test', { body: to ? { to } : {} }))
}

/** emailDeliveries is the log of e-mails sent (event e-mails, invites, password resets, tests). */
export const emailDeliveries: DeliveryLogApi = {
  list: (status: DeliveryStatusFilter, cursor?: string): Promise<DeliveryPage> =>
    unwrap(
      api.GET('/api/v1/admin/email/deliveries', {
        params: { query: { status: status || undefined, cursor, limit: DELIVERY_PAGE_SIZE } },
      }),
    ),
  get: (deliveryId) => unwrap(api.GET('/api/v1/admin/email/deliveries/{deliveryId}', { params: { path: { deliveryId } } })),
  redeliver: (deliveryId) =>
    unwrap(api.POST('/api/v1/admin/email/deliveries/{deliveryId}/redeliver', { params: { path: { deliveryId } } })),
}
