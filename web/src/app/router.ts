import { createRouter, createWebHistory, type RouteRecordRaw, type Router, type RouterHistory } from 'vue-router'
import { dashboardRoutes } from '../features/dashboard/routes'
import { loginRoutes } from '../features/login/routes'
import { notFoundRoutes } from '../features/not-found/routes'
import { setupRoutes } from '../features/setup/routes'
import { installSetupGuard } from './guard'

/** routes are every feature's routes; the catch-all not-found route stays last. */
export const routes: RouteRecordRaw[] = [
  ...dashboardRoutes,
  ...setupRoutes,
  ...loginRoutes,
  ...notFoundRoutes,
]

/**
 * createAppRouter builds the router with the setup guard installed. Tests pass a
 * memory history; the browser uses HTML5 history, which the server supports by
 * answering unknown UI paths with index.html.
 */
export function createAppRouter(history: RouterHistory = createWebHistory()): Router {
  const router = createRouter({
    history,
    routes,
    scrollBehavior: (_to, _from, saved) => saved ?? { top: 0 },
  })
  installSetupGuard(router)
  return router
}
