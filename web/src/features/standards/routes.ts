import type { RouteRecordRaw } from 'vue-router'

/** standardsRoutes holds the standards pages; the feed is declared before `:id` so it is not read as an id. */
export const standardsRoutes: RouteRecordRaw[] = [
  {
    path: '/standards',
    name: 'standards',
    component: () => import('./StandardsPage.vue'),
    meta: { layout: 'app', titleKey: 'standards.title', permission: 'standards.view' },
  },
  {
    path: '/standards/feed',
    name: 'standards-feed',
    component: () => import('./FeedPage.vue'),
    meta: { layout: 'app', titleKey: 'standards.feed.title', permission: 'standards.import' },
  },
  {
    path: '/standards/:id',
    name: 'standard',
    component: () => import('./StandardDetailPage.vue'),
    props: true,
    meta: { layout: 'app', titleKey: 'standards.detail.title', permission: 'standards.view' },
  },
]
