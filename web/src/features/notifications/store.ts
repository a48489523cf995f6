import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { Notification } from '../../resources/events/api'
import { fetchUnreadCount, markAllNotificationsRead, markNotificationRead } from './api'

/**
 * useNotificationsStore holds the signed-in user's unread count, which the bell
 * shows and the notifications page changes. A failed count keeps the last one: a
 * flaky connection should not flicker the badge.
 */
export const useNotificationsStore = defineStore('notifications', () => {
  const unread = ref(0)
  /** changed counts changes made here (marking read), so open lists know to reload. */
  const changed = ref(0)
  let pending: Promise<void> | null = null

  /** refresh asks the server for the unread count; concurrent calls share one request. */
  function refresh(): Promise<void> {
    pending ??= fetchUnreadCount()
      .then((count) => {
        unread.value = count
      })
      .catch(() => {})
      .finally(() => {
        pending = null
      })
    return pending
  }

  /** markRead marks one notification read and returns it as the server now has it. */
  async function markRead(notification: Pick<Notification, 'id' | 'read'>): Promise<Notification> {
    const updated = await markNotificationRead(notification.id)
    if (!notification.read) unread.value = Math.max(0, unread.value - 1)
    changed.value++
    void refresh()
    return updated
  }

  /** markAllRead marks every notification read and returns how many were unread. */
  async function markAllRead(): Promise<number> {
    const updated = await markAllNotificationsRead()
    unread.value = 0
    changed.value++
    void refresh()
    return updated
  }

  return { unread, changed, refresh, markRead, markAllRead }
})
