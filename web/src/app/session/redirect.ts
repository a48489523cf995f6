import type { RouteLocationRaw } from 'vue-router'

/** HOME_PATH is where a sign-in leads when no (acceptable) target was requested. */
export const HOME_PATH = '/'

/** LOGIN_PATH is the sign-in page's path. */
export const LOGIN_PATH = '/login'

// A redirect target longer than this is not one the application produced.
const MAX_REDIRECT_LENGTH = 2048

// Any ASCII control character or whitespace: browsers drop tabs and newlines from
// URLs, which can turn "/\t/evil.example" into the protocol-relative "//evil.example".
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f]/

/**
 * safeRedirect returns the in-app path to open after signing in: the requested one
 * if it is a path of this application ("/…"), otherwise the dashboard. It refuses
 * absolute URLs ("https://…"), protocol-relative ones ("//host", "/\\host"),
 * backslashes anywhere (browsers read them as slashes), control characters and
 * whitespace, and anything that is not a single string, so a crafted sign-in link
 * cannot send the user to another site (an open redirect).
 */
export function safeRedirect(requested: unknown): string {
  if (typeof requested !== 'string' || requested.length > MAX_REDIRECT_LENGTH) return HOME_PATH
  if (!requested.startsWith('/') || requested.startsWith('//')) return HOME_PATH
  if (requested.includes('\\') || CONTROL_OR_SPACE.test(requested)) return HOME_PATH
  // Belt and braces: whatever a URL parser makes of it must stay on this origin.
  const base = 'https://assay.invalid'
  try {
    if (new URL(requested, base).origin !== base) return HOME_PATH
  } catch {
    return HOME_PATH
  }
  return requested
}

/**
 * loginLocation is the sign-in page that returns to `fullPath` afterwards
 * ("/login?redirect=%2Fprofile" with the app router's query encoding). The home
 * page, where sign-in leads anyway, needs no redirect parameter.
 */
export function loginLocation(fullPath: string): RouteLocationRaw {
  const target = safeRedirect(fullPath)
  if (target === HOME_PATH) return { path: LOGIN_PATH }
  return { path: LOGIN_PATH, query: { redirect: target } }
}
