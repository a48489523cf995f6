import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../api/errors'
import { fetchMe, signOut, type Me } from './api'
import { signedInAdmin } from './fixtures'
import { SESSION_NOT_KEPT, useSessionStore } from './store'

vi.mock('./api', () => ({ fetchMe: vi.fn(), signOut: vi.fn() }))

const me = vi.mocked(fetchMe)
const logout = vi.mocked(signOut)

const admin = signedInAdmin

const unauthorized = () => new ApiError(401, 'unauthenticated', 'Authentication is required.', 'r1')

beforeEach(() => {
  setActivePinia(createPinia())
  me.mockReset()
  logout.mockReset()
})

describe('loading the session', () => {
  it('starts unknown and knows the user and their permissions once loaded', async () => {
    me.mockResolvedValue(admin)
    const session = useSessionStore()
    expect(session.status).toBe('unknown')
    await session.load()
    expect(session.status).toBe('signedIn')
    expect(session.user?.displayName).toBe('Ada Admin')
    expect(session.permissions).toEqual(['admin.users', 'projects.view'])
    expect(session.can('admin.users')).toBe(true)
    expect(session.can('admin.roles')).toBe(false)
  })

  it('asks the server only once per app start, even when asked concurrently', async () => {
    me.mockResolvedValue(admin)
    const session = useSessionStore()
    await Promise.all([session.load(), session.load()])
    await session.load()
    expect(me).toHaveBeenCalledTimes(1)
  })

  it('treats a 401 as signed out, which is an answer too', async () => {
    me.mockRejectedValue(unauthorized())
    const session = useSessionStore()
    await session.load()
    expect(session.status).toBe('signedOut')
    expect(session.error).toBeNull()
    expect(session.can('admin.users')).toBe(false)
    await session.load()
    expect(me).toHaveBeenCalledTimes(1)
  })

  it('stays unknown after a failure other than 401, reports it, and asks again next time', async () => {
    me.mockRejectedValueOnce(new TypeError('Failed to fetch'))
    me.mockResolvedValue(admin)
    const session = useSessionStore()
    await session.load()
    expect(session.status).toBe('unknown')
    expect(session.error).toMatchObject({ status: 0, error: 'network_error' })
    await session.load()
    expect(session.status).toBe('signedIn')
    expect(session.error).toBeNull()
  })

  it('keeps a signed-in user signed in when a forced reload fails for another reason', async () => {
    me.mockResolvedValueOnce(admin)
    me.mockRejectedValueOnce(new ApiError(503, 'unavailable', 'Down for maintenance.', 'r2'))
    const session = useSessionStore()
    await session.load()
    await session.load({ force: true })
    expect(session.status).toBe('signedIn')
    expect(session.error?.status).toBe(503)
  })

  it('treats a null permission list as no permissions', async () => {
    me.mockResolvedValue({ ...admin, permissions: null })
    const session = useSessionStore()
    await session.load()
    expect(session.permissions).toEqual([])
    expect(session.can('admin.users')).toBe(false)
  })
})

describe('confirmSignIn', () => {
  it('reloads the session after the server set the cookie and clears any notice', async () => {
    me.mockRejectedValueOnce(unauthorized())
    me.mockResolvedValue(admin)
    const session = useSessionStore()
    await session.load()
    session.notice = 'expired'
    await session.confirmSignIn()
    expect(me).toHaveBeenCalledTimes(2)
    expect(session.status).toBe('signedIn')
    expect(session.notice).toBeNull()
  })

  it('fails when the browser did not keep the cookie', async () => {
    me.mockRejectedValue(unauthorized())
    const session = useSessionStore()
    await expect(session.confirmSignIn()).rejects.toMatchObject({ status: 401, error: SESSION_NOT_KEPT })
    expect(session.status).toBe('signedOut')
  })

  it('fails with the server error when the session cannot be read', async () => {
    me.mockRejectedValue(new ApiError(500, 'internal', 'Boom.', 'r3'))
    const session = useSessionStore()
    await expect(session.confirmSignIn()).rejects.toMatchObject({ status: 500, message: 'Boom.' })
  })

  it('waits for a load already under way, then asks afresh', async () => {
    let answer: (value: Me) => void = () => {}
    me.mockImplementationOnce(() => Promise.reject(unauthorized()))
    me.mockImplementationOnce(() => new Promise<Me>((resolve) => (answer = resolve)))
    const session = useSessionStore()
    const first = session.load()
    const confirmed = session.confirmSignIn()
    await first
    expect(session.status).toBe('signedOut')
    await vi.waitFor(() => expect(me).toHaveBeenCalledTimes(2))
    answer(admin)
    await confirmed
    expect(session.status).toBe('signedIn')
  })
})

describe('signing out', () => {
  async function signedIn() {
    me.mockResolvedValue(admin)
    const session = useSessionStore()
    await session.load()
    return session
  }

  it('ends the session on the server and forgets the user', async () => {
    logout.mockResolvedValue()
    const session = await signedIn()
    await session.signOut()
    expect(logout).toHaveBeenCalledTimes(1)
    expect(session.status).toBe('signedOut')
    expect(session.user).toBeNull()
    expect(session.notice).toBe('signedOut')
  })

  it('counts a session the server had already ended as signed out', async () => {
    logout.mockRejectedValue(unauthorized())
    const session = await signedIn()
    await session.signOut()
    expect(session.status).toBe('signedOut')
  })

  it('stays signed in and reports the failure when the server could not end the session', async () => {
    logout.mockRejectedValue(new TypeError('Failed to fetch'))
    const session = await signedIn()
    await expect(session.signOut()).rejects.toMatchObject({ status: 0 })
    expect(session.status).toBe('signedIn')
    expect(session.notice).toBeNull()
  })
})

describe('expire', () => {
  it('forgets a signed-in user and says why', async () => {
    me.mockResolvedValue(admin)
    const session = useSessionStore()
    await session.load()
    expect(session.expire()).toBe(true)
    expect(session.status).toBe('signedOut')
    expect(session.notice).toBe('expired')
  })

  it('does nothing when nobody was signed in', async () => {
    me.mockRejectedValue(unauthorized())
    const session = useSessionStore()
    await session.load()
    expect(session.expire()).toBe(false)
    expect(session.notice).toBeNull()
  })
})
