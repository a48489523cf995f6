import type { Router } from 'vue-router'
import { HOME_PATH, safeRedirect } from '../../app/session/redirect'

/** PROFILE_PATH is where notifications about one's own account lead when their page is closed to the reader. */
const PROFILE_PATH = '/profile'

/**
 * notificationTarget decides where opening a notification leads: its link, the
 * path of the record in this application, when the reader may open that page. A
 * link to a page the reader's permissions close (a user.* notification about their
 * own account links to the user administration) leads to their profile for account
 * events, and nowhere otherwise. Anything that is not one of our paths leads
 * nowhere, so a stored link can never send the reader to another site.
 */
export function notificationTarget(
  router: Router,
  notification: { type: string; link?: string },
  can: (permission: string) => boolean,
): string | null {
  const link = notification.link
  if (!link) return null
  const target = safeRedirect(link)
  if (target === HOME_PATH && link !== HOME_PATH) return null
  const permission = router.resolve(target).meta.permission
  if (permission === undefined || can(permission)) return target
  return notification.type.startsWith('user.') ? PROFILE_PATH : null
}

/** followLink opens notificationTarget, if any, and returns whether it navigated. */
export async function followLink(
  router: Router,
  notification: { type: string; link?: string },
  can: (permission: string) => boolean,
): Promise<boolean> {
  const target = notificationTarget(router, notification, can)
  if (target === null) return false
  await router.push(target)
  return true
}
