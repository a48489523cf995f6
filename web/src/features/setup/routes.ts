import type { RouteRecordRaw } from 'vue-router'

/**
 * setupRoutes holds the first-run wizard, reachable only while no administrator exists,
 * and the page where administrators take its optional steps later.
 */
export const setupRoutes: RouteRecordRaw[] = [
  {
    path: '/setup',
    name: 'setup',
    component: () => import('./SetupPage.vue'),
    meta: { layout: 'public', titleKey: 'setup.title', requiresAuth: false },
  },
  {
    path: '/admin/sample-content',
    name: 'admin-sample-content',
    component: () => import('./SampleContentPage.vue'),
    meta: { layout: 'app', titleKey: 'setup.sample.title', permission: 'admin.settings' },
  },
]
