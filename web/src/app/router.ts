import { createRouter, createWebHistory, type RouteRecordRaw, type Router, type RouterHistory } from 'vue-router'
import { dashboardRoutes } from '../features/dashboard/routes'
import { loginRoutes } from '../features/login/routes'
import { notFoundRoutes } from '../features/not-found/routes'
import { profileRoutes } from '../features/profile/routes'
import { setupRoutes } from '../features/setup/routes'
import { installSessionExpiry } from '../features/session/expiry'
import { installAccessGuard } from './guard'
import { stringifyQuery } from './query'

/** routes are every feature's routes; the catch-all not-found route stays last. */
export const routes: RouteRecordRaw[] = [
  ...dashboardRoutes,
  ...setupRoutes,
  ...loginRoutes,
  ...profileRoutes,
  ...notFoundRoutes,
]

/**
 * createAppRouter builds the router with the access guard (setup, then session)
 * and the handling of sessions that end while the user works. Tests pass a memory
 * history; the browser uses HTML5 history, which the server supports by answering
 * unknown UI paths with index.html.
 */
export function createAppRouter(history: RouterHistory = createWebHistory()): Router {
  const router = createRouter({
    history,
    routes,
    stringifyQuery,
    scrollBehavior: (_to, _from, saved) => saved ?? { top: 0 },
  })
  installAccessGuard(router)
  installSessionExpiry(router)
  return router
}
