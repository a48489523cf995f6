import type { RouteLocationNormalized, RouteLocationRaw, Router } from 'vue-router'
import type { SessionView } from './access'
import { loginLocation, safeRedirect } from './session/redirect'
import { useSessionStore } from './session/store'
import type { SetupStatus } from './setup/api'
import { useSetupStore } from './setup/store'

/**
 * SETUP_PAGE_MAX_AGE_MS is how old a cached status may be when the viewer opens
 * /setup. Opening the wizard asks the server again (another tab may have finished
 * setup), except right after a redirect that has just asked.
 */
export const SETUP_PAGE_MAX_AGE_MS = 2_000

/**
 * WIZARD_LATER_STEPS are the setup wizard's steps after the account (its `?step=`): the
 * administrator is signed in by then, so a reload there continues the wizard rather than
 * leading to sign-in.
 */
export const WIZARD_LATER_STEPS = ['starter', 'demo', 'done'] as const

/** wizardLaterStep returns the later wizard step a /setup address names, or null. */
export function wizardLaterStep(to: Pick<RouteLocationNormalized, 'name' | 'query'>): (typeof WIZARD_LATER_STEPS)[number] | null {
  const step = to.name === 'setup' ? to.query.step : undefined
  return typeof step === 'string' && (WIZARD_LATER_STEPS as readonly string[]).includes(step) ? (step as (typeof WIZARD_LATER_STEPS)[number]) : null
}

/** GuardedRoute is the part of a route the access decisions look at. */
export type GuardedRoute = Pick<RouteLocationNormalized, 'name' | 'meta' | 'fullPath' | 'query'>

/**
 * setupRedirect decides where a navigation must go instead, given the setup
 * status: while no administrator exists every page leads to the wizard, and once
 * one does the wizard leads to sign-in. A path no route knows always shows the
 * not-found page (its home link then leads on to the wizard), so a mistyped link
 * is reported as such rather than silently replaced. It returns null when the navigation may
 * proceed, including when the status is unknown (the server did not answer): the
 * viewer then sees an error banner rather than a redirect loop.
 */
export function setupRedirect(
  to: Pick<RouteLocationNormalized, 'name' | 'query'>,
  status: SetupStatus | null,
): RouteLocationRaw | null {
  if (status === null || to.name === 'not-found') return null
  if (!status.setupComplete) return to.name === 'setup' ? null : { name: 'setup' }
  if (wizardLaterStep(to) !== null) return null // the session decides (wizardRedirect)
  return to.name === 'setup' ? { name: 'login' } : null
}

/**
 * wizardRedirect decides about a later wizard step once setup is complete: the signed-in
 * administrator who may take the optional steps continues there; anyone else signs in
 * first (and comes back) or, signed in without the permission, goes to the dashboard.
 */
function wizardRedirect(to: GuardedRoute, session: SessionView): RouteLocationRaw | null {
  if (session.status === 'signedOut') return loginLocation(to.fullPath)
  if (session.status === 'signedIn' && !session.can('admin.settings')) return { name: 'dashboard' }
  return null
}

/**
 * sessionRedirect decides where a navigation must go instead, given the session: a
 * page that requires sign-in (every page unless its meta says `requiresAuth: false`)
 * leads a signed-out viewer to sign-in, which returns to the page afterwards; the
 * sign-in page leads a signed-in user on to where they were going. An unknown
 * session (the server did not answer) lets the navigation through: the error banner
 * explains. A missing permission is not a redirect either (see missingPermission).
 */
export function sessionRedirect(to: GuardedRoute, session: SessionView): RouteLocationRaw | null {
  if (to.name === 'login') return session.status === 'signedIn' ? safeRedirect(to.query.redirect) : null
  if (to.meta.requiresAuth === false) return null
  return session.status === 'signedOut' ? loginLocation(to.fullPath) : null
}

/**
 * navigationRedirect combines both decisions in order: setup first, then the
 * session. Before setup is complete nobody can be signed in, so the session is not
 * consulted.
 */
export function navigationRedirect(
  to: GuardedRoute,
  status: SetupStatus | null,
  session: SessionView,
): RouteLocationRaw | null {
  const setupTarget = setupRedirect(to, status)
  if (setupTarget !== null) return setupTarget
  if (status !== null && !status.setupComplete) return null
  if (wizardLaterStep(to) !== null) return wizardRedirect(to, session)
  return sessionRedirect(to, session)
}

// needsSession reports whether deciding about `to` requires knowing who is signed in.
function needsSession(to: GuardedRoute): boolean {
  return to.name === 'login' || to.meta.requiresAuth !== false || wizardLaterStep(to) !== null
}

/**
 * installAccessGuard makes every navigation respect the installation's setup
 * status and the viewer's session, loading each once and only when needed.
 */
export function installAccessGuard(router: Router): void {
  router.beforeEach(async (to) => {
    const setup = useSetupStore()
    await setup.load(to.name === 'setup' ? { maxAgeMs: SETUP_PAGE_MAX_AGE_MS } : {})
    const session = useSessionStore()
    if (setup.status?.setupComplete !== false && needsSession(to)) await session.load()
    return navigationRedirect(to, setup.status, session) ?? true
  })
}
