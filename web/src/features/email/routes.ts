import type { RouteRecordRaw } from 'vue-router'

/** emailRoutes holds the e-mail (SMTP) administration page. */
export const emailRoutes: RouteRecordRaw[] = [
  {
    path: '/admin/email',
    name: 'admin-email',
    component: () => import('./EmailPage.vue'),
    meta: { layout: 'app', titleKey: 'email.title', permission: 'admin.integrations' },
  },
]
