import type { RouteRecordRaw } from 'vue-router'

/** searchRoutes holds the page of every search result (/search?q=…). */
export const searchRoutes: RouteRecordRaw[] = [
  {
    path: '/search',
    name: 'search',
    component: () => import('./SearchPage.vue'),
    meta: { layout: 'app', titleKey: 'search.pageTitle' },
  },
]
