import type { RouteRecordRaw } from 'vue-router'

/** evidenceRoutes holds the evidence library and one piece of evidence's page. */
export const evidenceRoutes: RouteRecordRaw[] = [
  {
    path: '/evidence',
    name: 'evidence',
    component: () => import('./EvidencePage.vue'),
    meta: { layout: 'app', titleKey: 'evidence.title', permission: 'evidence.view' },
  },
  {
    path: '/evidence/:id',
    name: 'evidence-detail',
    component: () => import('./EvidenceDetailPage.vue'),
    meta: { layout: 'app', titleKey: 'evidence.title', permission: 'evidence.view' },
  },
]
