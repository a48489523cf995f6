/** BADGE_MAX is the largest unread count the bell's badge shows as a number. */
export const BADGE_MAX = 99

/**
 * badgeText is what the bell's badge shows for `count` unread notifications: nothing
 * for none (the badge is hidden), the number up to BADGE_MAX, and "99+" beyond, so
 * the badge keeps its size however far behind the reader is.
 */
export function badgeText(count: number): string {
  if (!Number.isFinite(count) || count <= 0) return ''
  return count > BADGE_MAX ? `${BADGE_MAX}+` : String(Math.floor(count))
}
