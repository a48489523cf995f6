import type { RouteLocationNormalized, RouteLocationRaw, Router } from 'vue-router'
import type { SetupStatus } from '../features/setup/api'
import { useSetupStore } from '../features/setup/store'

/**
 * SETUP_PAGE_MAX_AGE_MS is how old a cached status may be when the viewer opens
 * /setup. Opening the wizard asks the server again (another tab may have finished
 * setup), except right after a redirect that has just asked.
 */
export const SETUP_PAGE_MAX_AGE_MS = 2_000

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
  to: Pick<RouteLocationNormalized, 'name'>,
  status: SetupStatus | null,
): RouteLocationRaw | null {
  if (status === null || to.name === 'not-found') return null
  if (!status.setupComplete) return to.name === 'setup' ? null : { name: 'setup' }
  return to.name === 'setup' ? { name: 'login' } : null
}

/** installSetupGuard makes every navigation respect the installation's setup status. */
export function installSetupGuard(router: Router): void {
  router.beforeEach(async (to) => {
    const setup = useSetupStore()
    await setup.load(to.name === 'setup' ? { maxAgeMs: SETUP_PAGE_MAX_AGE_MS } : {})
    return setupRedirect(to, setup.status) ?? true
  })
}
