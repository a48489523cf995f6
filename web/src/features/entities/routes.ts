import type { RouteRecordRaw } from 'vue-router'

/** entitiesRoutes holds the entity list (with the organisation's graph) and an entity's page. */
export const entitiesRoutes: RouteRecordRaw[] = [
  {
    path: '/entities',
    name: 'entities',
    component: () => import('./EntitiesPage.vue'),
    meta: { layout: 'app', titleKey: 'entities.title', permission: 'entities.view' },
  },
  {
    path: '/entities/:id',
    name: 'entity',
    component: () => import('./EntityDetailPage.vue'),
    meta: { layout: 'app', titleKey: 'entities.title', permission: 'entities.view' },
  },
]
