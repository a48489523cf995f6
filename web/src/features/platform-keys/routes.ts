import type { RouteRecordRaw } from 'vue-router'

/** platformKeysRoutes holds the administration of the platform's signing keys. */
export const platformKeysRoutes: RouteRecordRaw[] = [
  {
    path: '/admin/platform-keys',
    name: 'admin-platform-keys',
    component: () => import('./PlatformKeysPage.vue'),
    meta: { layout: 'app', titleKey: 'platformKeys.title', permission: 'platform_keys.rotate' },
  },
]
