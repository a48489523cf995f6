import type { RouteRecordRaw } from 'vue-router'

/** setupRoutes holds the first-run wizard, reachable only while no administrator exists. */
export const setupRoutes: RouteRecordRaw[] = [
  {
    path: '/setup',
    name: 'setup',
    component: () => import('./SetupPage.vue'),
    meta: { layout: 'public', titleKey: 'setup.title', requiresAuth: false },
  },
]
