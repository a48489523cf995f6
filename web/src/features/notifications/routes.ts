import type { RouteRecordRaw } from 'vue-router'

/** notificationsRoutes holds the signed-in user's notifications page, opened from the bell. */
export const notificationsRoutes: RouteRecordRaw[] = [
  {
    path: '/notifications',
    name: 'notifications',
    component: () => import('./NotificationsPage.vue'),
    meta: { layout: 'app', titleKey: 'notifications.title' },
  },
]
