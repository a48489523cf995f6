import type { RouteRecordRaw } from 'vue-router'

/** loginRoutes holds the sign-in page. */
export const loginRoutes: RouteRecordRaw[] = [
  {
    path: '/login',
    name: 'login',
    component: () => import('./LoginPage.vue'),
    meta: { layout: 'public', titleKey: 'login.title', requiresAuth: false },
  },
]
