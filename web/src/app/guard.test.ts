import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory } from 'vue-router'
import { ApiError } from '../api/errors'
import { fetchSetupStatus, type SetupStatus } from '../features/setup/api'
import { useSetupStore } from '../features/setup/store'
import { createAppRouter } from './router'

vi.mock('../features/setup/api', () => ({
  fetchSetupStatus: vi.fn(),
  createFirstAdministrator: vi.fn(),
}))

const fetchStatus = vi.mocked(fetchSetupStatus)

function status(setupComplete: boolean): SetupStatus {
  return { setupComplete, setupUrl: '/setup', passwordMinLength: 12 }
}

async function open(path: string) {
  const router = createAppRouter(createMemoryHistory())
  await router.push(path)
  return router.currentRoute.value
}

beforeEach(() => {
  setActivePinia(createPinia())
  fetchStatus.mockReset()
})

describe('before setup is complete', () => {
  beforeEach(() => fetchStatus.mockResolvedValue(status(false)))

  it.each(['/', '/login'])('%s leads to the setup wizard', async (path) => {
    const route = await open(path)
    expect(route.name).toBe('setup')
    expect(route.path).toBe('/setup')
  })

  it('an unknown path shows the not-found page, not the wizard', async () => {
    const route = await open('/no/such/page')
    expect(route.name).toBe('not-found')
    expect(route.path).toBe('/no/such/page')
  })

  it('asks the server once for a redirected first visit', async () => {
    await open('/')
    expect(fetchStatus).toHaveBeenCalledTimes(1)
  })
})

describe('once setup is complete', () => {
  beforeEach(() => fetchStatus.mockResolvedValue(status(true)))

  it('the wizard leads to sign-in', async () => {
    expect((await open('/setup')).name).toBe('login')
  })

  it('the dashboard and sign-in open normally', async () => {
    expect((await open('/')).name).toBe('dashboard')
    expect((await open('/login')).name).toBe('login')
  })

  it('an unknown path shows the not-found page', async () => {
    const route = await open('/no/such/page')
    expect(route.name).toBe('not-found')
    expect(route.path).toBe('/no/such/page')
  })

  it('opening the wizard again re-checks, in case setup finished elsewhere', async () => {
    fetchStatus.mockResolvedValueOnce(status(false))
    const router = createAppRouter(createMemoryHistory())
    await router.push('/')
    expect(router.currentRoute.value.name).toBe('setup')

    vi.useFakeTimers({ now: Date.now() + 60_000, toFake: ['Date'] })
    try {
      await router.push('/setup?again=1')
    } finally {
      vi.useRealTimers()
    }
    expect(router.currentRoute.value.name).toBe('login')
  })
})

describe('when the status cannot be read', () => {
  it('lets the navigation through and reports the error instead of looping', async () => {
    fetchStatus.mockRejectedValue(new ApiError(502, 'unexpected_response', '', ''))
    const route = await open('/')
    expect(route.name).toBe('dashboard')
    expect(useSetupStore().error?.status).toBe(502)
  })

  it('asks again on the next navigation and recovers', async () => {
    fetchStatus.mockRejectedValueOnce(new ApiError(0, 'network_error', '', ''))
    fetchStatus.mockResolvedValue(status(false))
    const router = createAppRouter(createMemoryHistory())
    await router.push('/')
    expect(router.currentRoute.value.name).toBe('dashboard')

    await router.push('/login')
    expect(router.currentRoute.value.name).toBe('setup')
    expect(useSetupStore().error).toBeNull()
  })
})
