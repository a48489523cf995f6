import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, type Router } from 'vue-router'
import { ApiError } from '../api/errors'
import { missingPermission } from './access'
import { navigationRedirect, sessionRedirect } from './guard'
import { createAppRouter } from './router'
import { fetchMe, type Me } from './session/api'
import { signedInAdmin, signedInAssessee } from './session/fixtures'
import { useSessionStore } from './session/store'
import { fetchSetupStatus, type SetupStatus } from './setup/api'
import { useSetupStore } from './setup/store'

vi.mock('./setup/api', () => ({ fetchSetupStatus: vi.fn() }))
vi.mock('./session/api', () => ({ fetchMe: vi.fn(), signOut: vi.fn() }))

const fetchStatus = vi.mocked(fetchSetupStatus)
const me = vi.mocked(fetchMe)

function status(setupComplete: boolean): SetupStatus {
  return { setupComplete, setupUrl: '/setup', passwordMinLength: 12, uploadMaxFileSize: 50 << 20, starterStandardsBuiltIn: true }
}

const unauthorized = () => new ApiError(401, 'unauthenticated', 'Authentication is required.', 'r1')

function signedIn(who: Me = signedInAdmin): void {
  me.mockResolvedValue(who)
}

function signedOut(): void {
  me.mockRejectedValue(unauthorized())
}

const adminOnly = { template: '<p>admin only</p>' }

function router(): Router {
  const r = createAppRouter(createMemoryHistory())
  // A page that needs a permission, as later features will add.
  r.addRoute({ path: '/admin/users', name: 'admin-users', component: adminOnly, meta: { permission: 'admin.users' } })
  return r
}

async function open(path: string) {
  const r = router()
  await r.push(path)
  return r.currentRoute.value
}

beforeEach(() => {
  vi.stubGlobal('scrollTo', () => {})
  setActivePinia(createPinia())
  fetchStatus.mockReset()
  me.mockReset()
})

describe('before setup is complete', () => {
  beforeEach(() => fetchStatus.mockResolvedValue(status(false)))

  it.each(['/', '/login', '/profile'])('%s leads to the setup wizard', async (path) => {
    const route = await open(path)
    expect(route.name).toBe('setup')
    expect(route.path).toBe('/setup')
  })

  it('an unknown path shows the not-found page, not the wizard', async () => {
    const route = await open('/no/such/page')
    expect(route.name).toBe('not-found')
    expect(route.path).toBe('/no/such/page')
  })

  it('asks the server once for a redirected first visit, and not about a session', async () => {
    await open('/')
    expect(fetchStatus).toHaveBeenCalledTimes(1)
    expect(me).not.toHaveBeenCalled()
  })
})

describe('once setup is complete, signed out', () => {
  beforeEach(() => {
    fetchStatus.mockResolvedValue(status(true))
    signedOut()
  })

  it('the wizard leads to sign-in', async () => {
    expect((await open('/setup')).name).toBe('login')
  })

  it('a later step of the setup wizard signs in first and comes back', async () => {
    const route = await open('/setup?step=demo')
    expect(route.name).toBe('login')
    expect(route.query.redirect).toBe('/setup?step=demo')
  })

  it('sign-in opens normally', async () => {
    const route = await open('/login')
    expect(route.name).toBe('login')
    expect(route.fullPath).toBe('/login')
  })

  it('a page that requires sign-in leads to sign-in, carrying the full path back', async () => {
    const route = await open('/profile?tab=password#change')
    expect(route.name).toBe('login')
    expect(route.query.redirect).toBe('/profile?tab=password#change')
  })

  it('the redirect parameter is encoded strictly', async () => {
    expect((await open('/profile')).fullPath).toBe('/login?redirect=%2Fprofile')
  })

  it('the home page leads to sign-in without a redirect parameter', async () => {
    expect((await open('/')).fullPath).toBe('/login')
  })

  it('an unknown path also needs sign-in first', async () => {
    const route = await open('/no/such/page')
    expect(route.name).toBe('login')
    expect(route.query.redirect).toBe('/no/such/page')
  })

  it('asks the server about the session once, not on every navigation', async () => {
    const r = router()
    await r.push('/')
    await r.push('/login?again=1')
    await r.push('/profile')
    expect(me).toHaveBeenCalledTimes(1)
  })
})

describe('once setup is complete, signed in', () => {
  beforeEach(() => fetchStatus.mockResolvedValue(status(true)))

  it('the dashboard, the profile and an unknown path open normally', async () => {
    signedIn()
    expect((await open('/')).name).toBe('dashboard')
    expect((await open('/profile')).name).toBe('profile')
    expect((await open('/no/such/page')).name).toBe('not-found')
  })

  it('sign-in leads on to the requested page', async () => {
    signedIn()
    const route = await open('/login?redirect=%2Fprofile')
    expect(route.fullPath).toBe('/profile')
  })

  it.each(['//evil.example/x', 'https://evil.example', '/\\evil.example'])(
    'sign-in never leads off the site (redirect=%s)',
    async (target) => {
      signedIn()
      const route = await open(`/login?redirect=${encodeURIComponent(target)}`)
      expect(route.fullPath).toBe('/')
    },
  )

  it('a later step of the setup wizard continues there for the administrator (a reload)', async () => {
    signedIn({ ...signedInAdmin, permissions: [...(signedInAdmin.permissions ?? []), 'admin.settings'] })
    expect((await open('/setup?step=starter')).fullPath).toBe('/setup?step=starter')
    expect((await open('/setup?step=demo')).fullPath).toBe('/setup?step=demo')
    expect((await open('/setup')).name, 'the account step is over: sign-in leads on').toBe('dashboard')
  })

  it('a later step of the setup wizard is not for users who may not take it', async () => {
    signedIn(signedInAssessee)
    expect((await open('/setup?step=demo')).name).toBe('dashboard')
  })

  it('a page whose permission the user holds opens', async () => {
    signedIn(signedInAdmin)
    const r = router()
    await r.push('/admin/users')
    expect(r.currentRoute.value.name).toBe('admin-users')
    expect(missingPermission(r.currentRoute.value, useSessionStore())).toBeNull()
  })

  it('a page whose permission the user lacks stays where it is and reports the missing key', async () => {
    signedIn(signedInAssessee)
    const r = router()
    await r.push('/admin/users')
    // No redirect (and so no loop): the layout shows the explanation at this URL.
    expect(r.currentRoute.value.fullPath).toBe('/admin/users')
    expect(missingPermission(r.currentRoute.value, useSessionStore())).toBe('admin.users')
  })
})

describe('when the status cannot be read', () => {
  it('lets the navigation through and reports the error instead of looping', async () => {
    fetchStatus.mockRejectedValue(new ApiError(502, 'unexpected_response', '', ''))
    signedIn()
    const route = await open('/')
    expect(route.name).toBe('dashboard')
    expect(useSetupStore().error?.status).toBe(502)
  })

  it('asks again on the next navigation and recovers', async () => {
    fetchStatus.mockRejectedValueOnce(new ApiError(0, 'network_error', '', ''))
    fetchStatus.mockResolvedValue(status(false))
    signedIn()
    const r = router()
    await r.push('/')
    expect(r.currentRoute.value.name).toBe('dashboard')

    await r.push('/login')
    expect(r.currentRoute.value.name).toBe('setup')
    expect(useSetupStore().error).toBeNull()
  })

  it('a session that cannot be read lets the navigation through, reported, and is asked again', async () => {
    fetchStatus.mockResolvedValue(status(true))
    me.mockRejectedValueOnce(new ApiError(503, 'unavailable', 'Try later.', 'r9'))
    me.mockRejectedValue(unauthorized())
    const r = router()
    await r.push('/profile')
    expect(r.currentRoute.value.name).toBe('profile')
    expect(useSessionStore().error?.status).toBe(503)

    await r.push('/')
    expect(r.currentRoute.value.name).toBe('login')
  })
})

describe('the decisions on their own', () => {
  const route = (name: string, fullPath: string, meta = {}, query = {}) => ({ name, fullPath, meta, query })
  const view = (s: 'signedIn' | 'signedOut' | 'unknown', keys: string[] = []) => ({
    status: s,
    can: (key: string) => keys.includes(key),
  })

  it('public pages never need a session', () => {
    expect(sessionRedirect(route('setup', '/setup', { requiresAuth: false }), view('signedOut'))).toBeNull()
  })

  it('an unknown session never redirects', () => {
    expect(sessionRedirect(route('profile', '/profile'), view('unknown'))).toBeNull()
    expect(sessionRedirect(route('login', '/login'), view('unknown'))).toBeNull()
  })

  it('setup comes first: an incomplete setup ignores the session entirely', () => {
    expect(navigationRedirect(route('setup', '/setup', { requiresAuth: false }), status(false), view('signedOut'))).toBeNull()
    expect(navigationRedirect(route('profile', '/profile'), status(false), view('signedOut'))).toEqual({ name: 'setup' })
  })

  it('a missing permission is not a redirect but reported by missingPermission', () => {
    const page = route('admin-users', '/admin/users', { permission: 'admin.users' })
    expect(navigationRedirect(page, status(true), view('signedIn'))).toBeNull()
    expect(missingPermission(page, view('signedIn'))).toBe('admin.users')
    expect(missingPermission(page, view('signedIn', ['admin.users']))).toBeNull()
    expect(missingPermission(page, view('signedOut'))).toBeNull()
    expect(missingPermission(route('dashboard', '/'), view('signedIn'))).toBeNull()
  })
})
