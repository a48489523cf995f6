import { createRouter, createWebHistory, type RouteRecordRaw, type Router, type RouterHistory } from 'vue-router'
import { assessmentsRoutes } from '../features/assessments/routes'
import { attestationsRoutes } from '../features/attestations/routes'
import { auditRoutes } from '../features/audit/routes'
import { chatRoutes } from '../features/chat/routes'
import { dashboardRoutes } from '../features/dashboard/routes'
import { emailRoutes } from '../features/email/routes'
import { entitiesRoutes } from '../features/entities/routes'
import { evidenceRoutes } from '../features/evidence/routes'
import { invitesRoutes } from '../features/invites/routes'
import { insightRoutes } from '../features/insight/routes'
import { loginRoutes } from '../features/login/routes'
import { notFoundRoutes } from '../features/not-found/routes'
import { notificationsRoutes } from '../features/notifications/routes'
import { passwordResetRoutes } from '../features/password-reset/routes'
import { platformKeysRoutes } from '../features/platform-keys/routes'
import { profileRoutes } from '../features/profile/routes'
import { projectsRoutes } from '../features/projects/routes'
import { registerRoutes } from '../features/register/routes'
import { rolesRoutes } from '../features/roles/routes'
import { rulesRoutes } from '../features/rules/routes'
import { searchRoutes } from '../features/search/routes'
import { setupRoutes } from '../features/setup/routes'
import { standardsRoutes } from '../features/standards/routes'
import { tagsRoutes } from '../features/tags/routes'
import { usersRoutes } from '../features/users/routes'
import { webhooksRoutes } from '../features/webhooks/routes'
import { installAccessGuard } from './guard'
import { stringifyQuery } from './query'
import { installSessionExpiry } from './session/expiry'

/** routes are every feature's routes; the catch-all not-found route stays last. */
export const routes: RouteRecordRaw[] = [
  ...dashboardRoutes,
  ...setupRoutes,
  ...loginRoutes,
  ...registerRoutes,
  ...passwordResetRoutes,
  ...profileRoutes,
  ...notificationsRoutes,
  ...usersRoutes,
  ...rolesRoutes,
  ...invitesRoutes,
  ...auditRoutes,
  ...webhooksRoutes,
  ...chatRoutes,
  ...emailRoutes,
  ...rulesRoutes,
  ...standardsRoutes,
  ...entitiesRoutes,
  ...projectsRoutes,
  ...insightRoutes,
  ...evidenceRoutes,
  ...assessmentsRoutes,
  ...attestationsRoutes,
  ...tagsRoutes,
  ...platformKeysRoutes,
  ...searchRoutes,
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
