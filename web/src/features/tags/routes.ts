import type { RouteRecordRaw } from 'vue-router'

/** tagsRoutes holds the tags pages. */
export const tagsRoutes: RouteRecordRaw[] = []
