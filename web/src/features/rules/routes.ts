import type { RouteRecordRaw } from 'vue-router'

/** rulesRoutes holds the global notification rules page. */
export const rulesRoutes: RouteRecordRaw[] = [
  {
    path: '/admin/notification-rules',
    name: 'admin-notification-rules',
    component: () => import('./RulesPage.vue'),
    meta: { layout: 'app', titleKey: 'rules.title', permission: 'admin.notification_rules' },
  },
]
