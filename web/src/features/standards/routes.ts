import type { RouteRecordRaw } from 'vue-router'

/** standardsRoutes holds the standards pages. */
export const standardsRoutes: RouteRecordRaw[] = []
