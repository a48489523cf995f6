import { api, unwrap } from '../../api/client'
import type { components } from '../../api/schema'
import type { Notification } from '../../resources/events/api'

/** NotificationPage is one page of notifications, newest first. */
export type NotificationPage = components['schemas']['PageNotification']

/** NOTIFICATION_PAGE_SIZE is how many notifications the notifications page loads at a time. */
export const NOTIFICATION_PAGE_SIZE = 50

/** listNotifications lists the signed-in user's notifications, newest first (GET /api/v1/notifications). */
export function listNotifications(
  options: { unread?: boolean; limit?: number } = {},
  cursor?: string,
): Promise<NotificationPage> {
  const query: { unread?: boolean; cursor?: string; limit: number } = { limit: options.limit ?? NOTIFICATION_PAGE_SIZE }
  if (options.unread) query.unread = true
  if (cursor) query.cursor = cursor
  return unwrap(api.GET('/api/v1/notifications', { params: { query } }))
}

/** fetchUnreadCount counts the unread notifications (GET /api/v1/notifications/unread-count). */
export async function fetchUnreadCount(): Promise<number> {
  return (await unwrap(api.GET('/api/v1/notifications/unread-count'))).count
}

/** markNotificationRead marks one notification read (POST /api/v1/notifications/{id}/read). */
export function markNotificationRead(id: string): Promise<Notification> {
  return unwrap(api.POST('/api/v1/notifications/{id}/read', { params: { path: { id } } }))
}

/** markAllNotificationsRead marks every notification read and says how many were unread. */
export async function markAllNotificationsRead(): Promise<number> {
  return (await unwrap(api.POST('/api/v1/notifications/read-all'))).updated
}
