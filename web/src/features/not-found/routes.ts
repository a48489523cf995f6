import type { RouteRecordRaw } from 'vue-router'

/** notFoundRoutes catches every path no other route matches; keep it last. */
export const notFoundRoutes: RouteRecordRaw[] = [
  {
    path: '/:pathMatch(.*)*',
    name: 'not-found',
    component: () => import('./NotFoundPage.vue'),
    meta: { layout: 'app', titleKey: 'notFound.title' },
  },
]
