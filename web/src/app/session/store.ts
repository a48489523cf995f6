import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import { ApiError } from '../../api/client'
import { networkError } from '../../api/errors'
import { fetchMe, signOut as endSession, type Me, type User } from './api'

/**
 * SessionStatus says what the UI knows about the viewer: signed in, signed out
 * (the server said so), or unknown (not asked yet, or the server did not answer).
 */
export type SessionStatus = 'signedIn' | 'signedOut' | 'unknown'

/** SessionNotice explains on the sign-in page why the viewer is there. */
export type SessionNotice = 'expired' | 'signedOut'

/**
 * SESSION_NOT_KEPT is the code of the ApiError confirmSignIn raises when the server
 * accepted a sign-in but the browser did not send the session cookie back (a
 * Secure cookie over plain HTTP, or cookies blocked).
 */
export const SESSION_NOT_KEPT = 'session_not_kept'

/** LoadOptions tune SessionStore.load. */
export interface LoadOptions {
  /** force asks the server even if it has already answered. */
  force?: boolean
}

function asApiError(cause: unknown): ApiError {
  return cause instanceof ApiError ? cause : networkError(cause)
}

/**
 * useSessionStore knows who is signed in and what they may do. It asks the server
 * (GET /api/v1/auth/me) once per app start, and again after a sign-in or setup. Only
 * a 401 signs the viewer out: a network error or a 5xx keeps what is known and
 * records `error`, so a flaky connection does not throw anyone out.
 */
export const useSessionStore = defineStore('session', () => {
  const me = ref<Me | null>(null)
  const answered = ref(false)
  const error = ref<ApiError | null>(null)
  const notice = ref<SessionNotice | null>(null)
  let pending: Promise<void> | null = null

  const user = computed<User | null>(() => me.value?.user ?? null)
  const permissions = computed<readonly string[]>(() => me.value?.permissions ?? [])
  const granted = computed(() => new Set(permissions.value))
  const status = computed<SessionStatus>(() => {
    if (me.value) return 'signedIn'
    return answered.value ? 'signedOut' : 'unknown'
  })
  const signedIn = computed(() => status.value === 'signedIn')

  /** can reports whether the signed-in user holds the permission `key` (e.g. "admin.users"). */
  function can(key: string): boolean {
    return granted.value.has(key)
  }

  function clear(): void {
    me.value = null
    answered.value = true
    error.value = null
  }

  async function fetchNow(): Promise<void> {
    try {
      me.value = await fetchMe()
      answered.value = true
      error.value = null
    } catch (cause) {
      const failure = asApiError(cause)
      if (failure.status === 401) clear()
      else error.value = failure
    }
  }

  /**
   * load asks the server who is signed in, unless it has already answered (a failed
   * attempt is not an answer: the next load asks again). It never throws. A forced
   * load waits for one already under way and then asks afresh.
   */
  function load(options: LoadOptions = {}): Promise<void> {
    if (!options.force) {
      if (answered.value) return Promise.resolve()
      if (pending) return pending
    }
    const next: Promise<void> = (pending ?? Promise.resolve()).then(fetchNow).finally(() => {
      if (pending === next) pending = null
    })
    pending = next
    return next
  }

  /**
   * confirmSignIn reloads the session after the server has set the cookie (sign-in,
   * setup). It throws an ApiError when the user is not signed in afterwards.
   */
  async function confirmSignIn(): Promise<void> {
    await load({ force: true })
    if (error.value) throw error.value
    if (!me.value) throw new ApiError(401, SESSION_NOT_KEPT, '', '')
    notice.value = null
  }

  /**
   * signOut ends the session on the server and forgets the user. A session the
   * server has already ended (401) counts as signed out; any other failure throws
   * and leaves the user signed in, because the cookie is still valid.
   */
  async function signOut(): Promise<void> {
    try {
      await endSession()
    } catch (cause) {
      const failure = asApiError(cause)
      if (failure.status !== 401) throw failure
    }
    clear()
    notice.value = 'signedOut'
  }

  /** replace takes the session as the server answered a change to it (e.g. PATCH /auth/me). */
  function replace(next: Me): void {
    me.value = next
    answered.value = true
    error.value = null
  }

  /**
   * expire forgets a user whose session the server no longer accepts (an API call
   * answered 401). It returns whether someone was signed in, so the caller knows
   * whether to send them to the sign-in page.
   */
  function expire(): boolean {
    if (!me.value) return false
    clear()
    notice.value = 'expired'
    return true
  }

  return {
    me,
    user,
    permissions,
    status,
    signedIn,
    error,
    notice,
    can,
    load,
    confirmSignIn,
    signOut,
    replace,
    expire,
  }
})
