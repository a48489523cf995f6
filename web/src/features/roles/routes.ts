import type { RouteRecordRaw } from 'vue-router'

/** rolesRoutes holds the role administration page. */
export const rolesRoutes: RouteRecordRaw[] = [
  {
    path: '/admin/roles',
    name: 'admin-roles',
    component: () => import('./RolesPage.vue'),
    meta: { layout: 'app', titleKey: 'rolesPage.title', permission: 'admin.roles' },
  },
]
