import type { RouteRecordRaw } from 'vue-router'

/** invitesRoutes holds the invite administration page. */
export const invitesRoutes: RouteRecordRaw[] = [
  {
    path: '/admin/invites',
    name: 'admin-invites',
    component: () => import('./InvitesPage.vue'),
    meta: { layout: 'app', titleKey: 'invites.title', permission: 'admin.users' },
  },
]
