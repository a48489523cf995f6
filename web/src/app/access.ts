import type { RouteLocationNormalizedLoaded } from 'vue-router'
import type { SessionStatus } from './session/store'

/** SessionView is what access decisions need to know about the session. */
export interface SessionView {
  status: SessionStatus
  can(key: string): boolean
}

/**
 * missingPermission returns the permission key a signed-in user lacks to use the
 * page, or null when they may (or when the page needs none, or nobody is signed
 * in: the sign-in redirect handles that). The page then shows an explanation
 * instead of its content; the URL stays, so nothing loops and the user can copy it
 * to ask for access.
 */
export function missingPermission(
  route: Pick<RouteLocationNormalizedLoaded, 'meta'>,
  session: SessionView,
): string | null {
  const key = route.meta.permission
  if (!key || session.status !== 'signedIn') return null
  return session.can(key) ? null : key
}
