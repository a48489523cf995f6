import type { RouteRecordRaw } from 'vue-router'

/** projectsRoutes holds the project list and a project's page. */
export const projectsRoutes: RouteRecordRaw[] = [
  {
    path: '/projects',
    name: 'projects',
    component: () => import('./ProjectsPage.vue'),
    meta: { layout: 'app', titleKey: 'projects.title', permission: 'projects.view' },
  },
  {
    path: '/projects/:id',
    name: 'project',
    component: () => import('./ProjectDetailPage.vue'),
    meta: { layout: 'app', titleKey: 'projects.title', permission: 'projects.view' },
  },
]
