import type { RouteRecordRaw } from 'vue-router'

/** passwordResetRoutes hold the public pages to ask for a reset link and to use one. */
export const passwordResetRoutes: RouteRecordRaw[] = [
  {
    path: '/forgot-password',
    name: 'forgot-password',
    component: () => import('./ForgotPasswordPage.vue'),
    meta: { layout: 'public', titleKey: 'passwordReset.forgot.title', requiresAuth: false },
  },
  {
    path: '/reset-password',
    name: 'reset-password',
    component: () => import('./ResetPasswordPage.vue'),
    meta: { layout: 'public', titleKey: 'passwordReset.reset.title', requiresAuth: false },
  },
]
