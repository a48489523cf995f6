import type { RouteRecordRaw } from 'vue-router'

/** registerRoutes holds the public registration page, which invite links open. */
export const registerRoutes: RouteRecordRaw[] = [
  {
    path: '/register',
    name: 'register',
    component: () => import('./RegisterPage.vue'),
    meta: { layout: 'public', titleKey: 'register.title', requiresAuth: false },
  },
]
