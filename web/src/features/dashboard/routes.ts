import type { RouteRecordRaw } from 'vue-router'

/** dashboardRoutes holds the home page. */
export const dashboardRoutes: RouteRecordRaw[] = [
  {
    path: '/',
    name: 'dashboard',
    component: () => import('./DashboardPage.vue'),
    meta: { layout: 'app', titleKey: 'dashboard.title' },
  },
]
