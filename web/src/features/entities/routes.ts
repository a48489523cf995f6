import type { RouteRecordRaw } from 'vue-router'

/** entitiesRoutes holds the entities pages. */
export const entitiesRoutes: RouteRecordRaw[] = []
