import type { RouteRecordRaw } from 'vue-router'

/** attestationsRoutes holds the attestation list, verification of a document, the assessors and one attestation. */
export const attestationsRoutes: RouteRecordRaw[] = [
  {
    path: '/attestations',
    name: 'attestations',
    component: () => import('./AttestationsPage.vue'),
    meta: { layout: 'app', titleKey: 'attestations.title', permission: 'attestations.view' },
  },
  {
    path: '/attestations/verify',
    name: 'attestation-verify',
    component: () => import('./VerifyDocumentPage.vue'),
    meta: { layout: 'app', titleKey: 'attestations.verify.title', permission: 'attestations.view' },
  },
  {
    path: '/attestations/imports',
    name: 'attestation-imports',
    component: () => import('./imports/AttestationImportsPage.vue'),
    meta: { layout: 'app', titleKey: 'attestations.imports.title', permission: 'admin.import' },
  },
  {
    path: '/attestations/assessors',
    name: 'attestation-assessors',
    component: () => import('./AssessorsPage.vue'),
    meta: { layout: 'app', titleKey: 'attestations.assessors.title', permission: 'attestations.view' },
  },
  {
    path: '/attestations/:id',
    name: 'attestation',
    component: () => import('./AttestationPage.vue'),
    meta: { layout: 'app', titleKey: 'attestations.title', permission: 'attestations.view' },
  },
]
