import type { RouteRecordRaw } from 'vue-router'

/** profileRoutes holds the signed-in user's own account page, opened from the user menu. */
export const profileRoutes: RouteRecordRaw[] = [
  {
    path: '/profile',
    name: 'profile',
    component: () => import('./ProfilePage.vue'),
    meta: { layout: 'app', titleKey: 'profile.title' },
  },
]
