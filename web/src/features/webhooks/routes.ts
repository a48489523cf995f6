import type { RouteRecordRaw } from 'vue-router'

/** webhooksRoutes holds the webhook administration page. */
export const webhooksRoutes: RouteRecordRaw[] = [
  {
    path: '/admin/webhooks',
    name: 'admin-webhooks',
    component: () => import('./WebhooksPage.vue'),
    meta: { layout: 'app', titleKey: 'webhooks.title', permission: 'admin.webhooks' },
  },
]
