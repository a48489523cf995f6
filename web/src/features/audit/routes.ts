import type { RouteRecordRaw } from 'vue-router'

/** auditRoutes holds the audit log page. */
export const auditRoutes: RouteRecordRaw[] = [
  {
    path: '/admin/audit',
    name: 'admin-audit',
    component: () => import('./AuditPage.vue'),
    meta: { layout: 'app', titleKey: 'audit.title', permission: 'admin.audit' },
  },
]
