import type { Client } from 'openapi-fetch'
import { api, unwrap, type ErrorEnvelope } from '../../api/client'
import type { paths } from '../../api/schema'

/** Credentials are what the sign-in form submits; `username` may also be an e-mail address. */
export interface Credentials {
  username: string
  password: string
}

// POST /api/v1/auth/login is added to the server by a later issue. Until the
// OpenAPI document declares it, this describes it in the generated client's
// format; once the document has the path, the generated type takes over and this
// fallback (and the cast below) should be deleted.
interface PendingLoginPaths {
  '/api/v1/auth/login': {
    parameters: { query?: never; header?: never; path?: never; cookie?: never }
    post: {
      parameters: { query?: never; header?: never; path?: never; cookie?: never }
      requestBody: { content: { 'application/json': Credentials } }
      responses: {
        200: { headers: Record<string, unknown>; content: { 'application/json': unknown } }
        default: { headers: Record<string, unknown>; content: { 'application/json': ErrorEnvelope } }
      }
    }
  }
}

type LoginPaths = '/api/v1/auth/login' extends keyof paths ? paths : paths & PendingLoginPaths

const loginApi = api as unknown as Client<LoginPaths>

/**
 * signIn starts a session (POST /api/v1/auth/login); the server answers with a
 * session cookie. Failures reject with an ApiError carrying the server's envelope.
 */
export async function signIn(credentials: Credentials): Promise<void> {
  await unwrap(loginApi.POST('/api/v1/auth/login', { body: credentials }))
}

/**
 * safeRedirect returns the in-app path to open after signing in: the requested
 * one if it is a local path ("/…" but not "//…", which would leave the site),
 * otherwise the dashboard.
 */
export function safeRedirect(requested: unknown): string {
  if (typeof requested !== 'string') return '/'
  return /^\/(?![/\\])/.test(requested) ? requested : '/'
}
