import type { RouteRecordRaw } from 'vue-router'

/** assessmentsRoutes holds the assessment list and an assessment's workspace. */
export const assessmentsRoutes: RouteRecordRaw[] = [
  {
    path: '/assessments',
    name: 'assessments',
    component: () => import('./AssessmentsPage.vue'),
    meta: { layout: 'app', titleKey: 'assessments.title', permission: 'assessments.view' },
  },
  {
    path: '/assessments/:id',
    name: 'assessment',
    component: () => import('./AssessmentWorkspacePage.vue'),
    meta: { layout: 'app', titleKey: 'assessments.title', permission: 'assessments.view' },
  },
]
