import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter, type Router } from 'vue-router'
import { api, unwrap } from '../../api/client'
import { installSessionExpiry } from './expiry'
import { signedInAdmin } from './fixtures'
import { useSessionStore } from './store'

// These tests go through the real API client, with fetch replaced per request, so
// they cover the client's 401 detection and the session's reaction together.

const BASE_URL = 'http://assay.test'

function answer(status: number, body: unknown = null): typeof fetch {
  return vi.fn(async () =>
    body === null
      ? new Response(null, { status })
      : new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
  )
}

const unauthenticated = { error: 'unauthenticated', message: 'The session is invalid or has expired.', requestId: 'r1' }

const page = { template: '<p>page</p>' }

let router: Router
let uninstall: () => void

async function start(path: string, signedIn: boolean): Promise<void> {
  setActivePinia(createPinia())
  const session = useSessionStore()
  session.me = signedIn ? signedInAdmin : null
  router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/', name: 'dashboard', component: page },
      { path: '/profile', name: 'profile', component: page },
      { path: '/login', name: 'login', component: page, meta: { requiresAuth: false } },
    ],
  })
  uninstall = installSessionExpiry(router)
  await router.push(path)
}

beforeEach(() => {
  uninstall?.()
})

describe('a 401 from any API call', () => {
  it('signs a signed-in user out and opens sign-in with the way back', async () => {
    await start('/profile?tab=password', true)
    const call = api.GET('/api/v1/auth/me', { baseUrl: BASE_URL, fetch: answer(401, unauthenticated) })
    await expect(unwrap(call)).rejects.toMatchObject({ status: 401 })
    await vi.waitFor(() => expect(router.currentRoute.value.name).toBe('login'))
    expect(router.currentRoute.value.path).toBe('/login')
    expect(router.currentRoute.value.query.redirect).toBe('/profile?tab=password')
    const session = useSessionStore()
    expect(session.status).toBe('signedOut')
    expect(session.notice).toBe('expired')
  })

  it('works for writes too', async () => {
    await start('/profile', true)
    const call = api.POST('/api/v1/auth/password', {
      baseUrl: BASE_URL,
      fetch: answer(401, unauthenticated),
      body: { currentPassword: 'a', newPassword: 'b' },
    })
    await expect(unwrap(call)).rejects.toMatchObject({ status: 401 })
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/login'))
  })

  it('changes nothing while nobody is signed in', async () => {
    await start('/login', false)
    await unwrap(api.GET('/api/v1/auth/me', { baseUrl: BASE_URL, fetch: answer(401, unauthenticated) })).catch(() => {})
    expect(router.currentRoute.value.fullPath).toBe('/login')
    expect(useSessionStore().notice).toBeNull()
  })

  it('is reported once when several calls fail at the same moment', async () => {
    await start('/profile', true)
    const replace = vi.spyOn(router, 'replace')
    await Promise.allSettled([
      unwrap(api.GET('/api/v1/auth/me', { baseUrl: BASE_URL, fetch: answer(401, unauthenticated) })),
      unwrap(api.GET('/api/v1/auth/me', { baseUrl: BASE_URL, fetch: answer(401, unauthenticated) })),
    ])
    expect(replace).toHaveBeenCalledTimes(1)
  })
})

describe('answers that do not mean the session ended', () => {
  it('a wrong password at sign-in (401) leaves the session alone', async () => {
    await start('/login', true)
    const call = api.POST('/api/v1/auth/login', {
      baseUrl: BASE_URL,
      fetch: answer(401, { error: 'unauthenticated', message: 'The username or password is incorrect.', requestId: 'r2' }),
      body: { username: 'admin', password: 'wrong' },
    })
    await expect(unwrap(call)).rejects.toMatchObject({ status: 401, message: 'The username or password is incorrect.' })
    expect(useSessionStore().status).toBe('signedIn')
  })

  it('signing out of an already ended session (401) is left to the sign-out itself', async () => {
    await start('/profile', true)
    await unwrap(api.POST('/api/v1/auth/logout', { baseUrl: BASE_URL, fetch: answer(401, unauthenticated) })).catch(() => {})
    expect(useSessionStore().status).toBe('signedIn')
    expect(router.currentRoute.value.path).toBe('/profile')
  })

  it.each([403, 500])('a %i keeps the user signed in', async (status) => {
    await start('/profile', true)
    await unwrap(
      api.GET('/api/v1/auth/me', { baseUrl: BASE_URL, fetch: answer(status, { error: 'x', message: 'y', requestId: 'z' }) }),
    ).catch(() => {})
    expect(useSessionStore().status).toBe('signedIn')
    expect(router.currentRoute.value.path).toBe('/profile')
  })
})
