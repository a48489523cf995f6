import type { RouteRecordRaw } from 'vue-router'

/** tagsRoutes holds the administration of tags. */
export const tagsRoutes: RouteRecordRaw[] = [
  {
    path: '/admin/tags',
    name: 'admin-tags',
    component: () => import('./TagsPage.vue'),
    meta: { layout: 'app', titleKey: 'tags.title', permission: 'admin.tags' },
  },
]
