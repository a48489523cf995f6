import type { RouteRecordRaw } from 'vue-router'

/** usersRoutes holds the user administration page. */
export const usersRoutes: RouteRecordRaw[] = [
  {
    path: '/admin/users',
    name: 'admin-users',
    component: () => import('./UsersPage.vue'),
    meta: { layout: 'app', titleKey: 'users.title', permission: 'admin.users' },
  },
]
