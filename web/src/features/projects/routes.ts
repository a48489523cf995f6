import type { RouteRecordRaw } from 'vue-router'

/** projectsRoutes holds the projects pages. */
export const projectsRoutes: RouteRecordRaw[] = []
