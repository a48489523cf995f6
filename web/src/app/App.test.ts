import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, type Router } from 'vue-router'
import { ApiError } from '../api/errors'
import { fetchHealth } from '../features/dashboard/api'
import { listApiKeys } from '../resources/api-keys/api'
import App from './App.vue'
import { createAppI18n } from './i18n'
import { usePreferencesStore } from './preferences'
import { createAppRouter } from './router'
import { fetchMe, signOut } from './session/api'
import { signedInAdmin, signedInAssessee } from './session/fixtures'
import { fetchSetupStatus } from './setup/api'

vi.mock('./setup/api', () => ({ fetchSetupStatus: vi.fn() }))
vi.mock('../features/dashboard/api', () => ({
  API_DOCS_URL: '/api/v1/docs',
  fetchHealth: vi.fn(),
}))
vi.mock('./session/api', () => ({ fetchMe: vi.fn(), signOut: vi.fn() }))
vi.mock('../features/notifications/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../features/notifications/api')>()),
  fetchUnreadCount: vi.fn(async () => 0),
  listNotifications: vi.fn(async () => ({ items: [], hasMore: false })),
}))
vi.mock('../resources/events/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../resources/events/api')>()),
  fetchEventTypes: vi.fn(async () => []),
  fetchChannelStatus: vi.fn(async () => ({ inApp: true, email: false, webhook: true, slack: false, teams: false, mattermost: false })),
}))
vi.mock('../resources/notification-rules/api', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../resources/notification-rules/api')>()
  const rules = { list: vi.fn(async () => ({ items: [], hasMore: false })), create: vi.fn(), update: vi.fn(), remove: vi.fn() }
  return { ...actual, rulesFor: () => rules }
})
vi.mock('../features/profile/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../features/profile/api')>()),
  changePassword: vi.fn(),
  updateProfile: vi.fn(),
}))
vi.mock('../resources/api-keys/api', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../resources/api-keys/api')>()
  const listApiKeys = vi.fn()
  const createApiKey = vi.fn()
  const revokeApiKey = vi.fn()
  return {
    ...actual,
    listApiKeys,
    createApiKey,
    revokeApiKey,
    apiKeysFor: () => ({ list: listApiKeys, create: createApiKey, revoke: revokeApiKey }),
  }
})

// mountApp renders the whole application at `path` with setup complete and, unless
// the test says otherwise, the administrator signed in. `prepare` may add routes.
async function mountApp(path: string, prepare: (router: Router) => void = () => {}) {
  const pinia = createPinia()
  setActivePinia(pinia)
  const preferences = usePreferencesStore()
  const router = createAppRouter(createMemoryHistory())
  prepare(router)
  await router.push(path)
  const wrapper = mount(App, {
    attachTo: document.body,
    global: { plugins: [pinia, router, createAppI18n(preferences.locale)] },
  })
  await flushPromises()
  return { wrapper, router, preferences }
}

beforeEach(() => {
  vi.stubGlobal('scrollTo', () => {})
  localStorage.clear()
  document.documentElement.className = ''
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['en-US'])
  vi.mocked(fetchSetupStatus).mockResolvedValue({ setupComplete: true, setupUrl: '/setup', passwordMinLength: 12, uploadMaxFileSize: 50 << 20, starterStandardsBuiltIn: true })
  vi.mocked(fetchHealth).mockResolvedValue({ status: 'ok', version: '1.2.3', uptime: 5, database: 'ok', storage: 'ok' })
  vi.mocked(fetchMe).mockReset().mockResolvedValue(signedInAdmin)
  vi.mocked(signOut).mockReset()
  vi.mocked(listApiKeys).mockResolvedValue({ items: [], hasMore: false })
})

const page = { template: '<p>user list</p>' }

// withAdministration adds the page later features will add, guarded by a permission.
function withAdministration(router: Router): void {
  router.addRoute({ path: '/admin', name: 'administration', component: page, meta: { permission: 'admin.users' } })
}

// Element Plus shows a dropdown's menu in a popper attached to <body>; poppers of
// earlier tests may linger there, so look in the newest one.
function menuPopper(): HTMLElement | undefined {
  const poppers = document.body.querySelectorAll<HTMLElement>('.user-menu__popper')
  return poppers[poppers.length - 1]
}

function menuItems(): HTMLElement[] {
  return [...(menuPopper()?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])]
}

describe('the application shell', () => {
  it('shows the product name and only navigation entries whose pages exist', async () => {
    const { wrapper } = await mountApp('/')
    const nav = wrapper.get('nav[aria-label="Main navigation"]')
    expect(wrapper.get('header').text()).toContain('Assay')
    // The fixture holds projects.view but not entities.view: Entities stays hidden.
    expect(nav.findAll('a').map((link) => link.text())).toEqual(['Dashboard', 'Projects'])
    expect(nav.get('a').attributes('aria-current')).toBe('page')
    wrapper.unmount()
  })

  it('welcomes the user on the dashboard with a link to the API documentation', async () => {
    const { wrapper } = await mountApp('/')
    expect(wrapper.get('h1').text()).toBe('Dashboard')
    const link = wrapper.findAll('a').find((a) => a.text().includes('Open the API documentation'))
    expect(link?.attributes('href')).toBe('/api/v1/docs')
    expect(document.title).toBe('Dashboard · Assay')
    wrapper.unmount()
  })

  it('offers a labelled theme toggle that switches to dark', async () => {
    const { wrapper } = await mountApp('/')
    const toggle = wrapper.get('button[aria-label="Switch to dark theme"]')
    await toggle.trigger('click')
    expect(document.documentElement.classList.contains('dark')).toBe(true)
    expect(wrapper.find('button[aria-label="Switch to light theme"]').exists()).toBe(true)
    wrapper.unmount()
  })

  it('speaks German everywhere once German is chosen, including labels for screen readers', async () => {
    const { wrapper, preferences } = await mountApp('/no/such/page')
    preferences.setLocale('de')
    await flushPromises()
    expect(wrapper.get('h1').text()).toBe('Seite nicht gefunden')
    expect(wrapper.find('nav[aria-label="Hauptnavigation"]').exists()).toBe(true)
    expect(wrapper.find('button[aria-label="Zum dunklen Design wechseln"]').exists()).toBe(true)
    expect(wrapper.find('input[aria-label="Sprache"]').exists()).toBe(true)
    wrapper.unmount()
  })
})

describe('the navigation', () => {
  const links = (wrapper: VueWrapper) =>
    wrapper.get('nav[aria-label="Main navigation"]').findAll('a').map((link) => link.text())

  it('groups the administration pages, each shown only with its permission', async () => {
    // The administrator fixture holds admin.users but neither admin.roles nor admin.audit.
    const { wrapper } = await mountApp('/')
    expect(links(wrapper)).toEqual(['Dashboard', 'Projects'])
    const group = wrapper.get('[data-test="nav-group-administration"] button')
    expect(group.text()).toBe('Administration')
    await group.trigger('click')
    await vi.waitFor(() => {
      const poppers = document.body.querySelectorAll('.app-nav__popper')
      const items = [...(poppers[poppers.length - 1]?.querySelectorAll('[role="menuitem"]') ?? [])]
      expect(items.map((item) => item.textContent?.trim())).toEqual(['Users', 'Invites'])
    })
    wrapper.unmount()
  })

  it('leaves the group out for users who may open none of its pages', async () => {
    vi.mocked(fetchMe).mockResolvedValue(signedInAssessee)
    const { wrapper } = await mountApp('/')
    expect(links(wrapper)).toEqual(['Dashboard', 'Projects'])
    expect(wrapper.find('[data-test="nav-group-administration"]').exists()).toBe(false)
    wrapper.unmount()
  })
})

describe('a page whose permission the user lacks', () => {
  it('explains which permission is missing instead of showing the page', async () => {
    vi.mocked(fetchMe).mockResolvedValue(signedInAssessee)
    const { wrapper, router } = await mountApp('/admin', withAdministration)
    expect(router.currentRoute.value.fullPath).toBe('/admin')
    expect(wrapper.get('h1').text()).toBe('Access denied')
    expect(wrapper.get('main').text()).toContain('You do not have permission to open this page: it needs the permission “Manage users and invites”.')
    expect(wrapper.get('main').text()).not.toContain('admin.users')
    expect(wrapper.text()).not.toContain('user list')
    expect(document.title).toBe('Access denied · Assay')
    wrapper.unmount()
  })

  it('shows the page to a user who holds it', async () => {
    const { wrapper } = await mountApp('/admin', withAdministration)
    expect(wrapper.get('main').text()).toBe('user list')
    wrapper.unmount()
  })
})

describe('the user menu', () => {
  it('shows the signed-in user and opens their profile', async () => {
    const { wrapper, router } = await mountApp('/')
    const trigger = wrapper.get('button[aria-label="Ada Admin – account menu"]')
    expect(trigger.text()).toContain('Ada Admin')
    await trigger.trigger('click')
    await vi.waitFor(() => expect(menuItems().map((item) => item.textContent?.trim())).toEqual(['Profile', 'Sign out']))
    expect(menuPopper()?.textContent).toContain('admin@example.com')
    menuItems()[0]?.click()
    await vi.waitFor(() => expect(router.currentRoute.value.name).toBe('profile'), { timeout: 10_000 })
    wrapper.unmount()
  })

  it('signs out and opens sign-in, which confirms it', async () => {
    vi.mocked(signOut).mockResolvedValue()
    const { wrapper, router } = await mountApp('/')
    await wrapper.get('button[aria-label="Ada Admin – account menu"]').trigger('click')
    await vi.waitFor(() => expect(menuItems()).toHaveLength(2))
    menuItems()[1]?.click()
    await vi.waitFor(() => expect(router.currentRoute.value.name).toBe('login'), { timeout: 10_000 })
    await flushPromises()
    expect(signOut).toHaveBeenCalledTimes(1)
    expect(router.currentRoute.value.fullPath).toBe('/login')
    expect(wrapper.text()).toContain('You have signed out.')
    expect(wrapper.find('button[aria-label="Ada Admin – account menu"]').exists()).toBe(false)
    wrapper.unmount()
  })

  it('is absent while nobody is signed in', async () => {
    vi.mocked(fetchMe).mockRejectedValue(new ApiError(401, 'unauthenticated', 'Sign in.', 'r1'))
    const { wrapper, router } = await mountApp('/')
    expect(router.currentRoute.value.name).toBe('login')
    expect(wrapper.find('[data-test="user-menu"]').exists()).toBe(false)
    wrapper.unmount()
  })
})

describe('the not-found page', () => {
  it('names the unknown path and links home', async () => {
    const { wrapper } = await mountApp('/no/such/page')
    expect(wrapper.get('h1').text()).toBe('Page not found')
    expect(wrapper.text()).toContain('There is no page at /no/such/page.')
    const home = wrapper.get('main a')
    expect(home.text()).toBe('Go to the dashboard')
    expect(home.attributes('href')).toBe('/')
    wrapper.unmount()
  })
})

describe('when the session cannot be checked', () => {
  it('shows an error banner instead of signing the viewer out', async () => {
    vi.mocked(fetchMe).mockRejectedValueOnce(new ApiError(503, 'unavailable', 'The database is not reachable.', 'r7'))
    const { wrapper, router } = await mountApp('/profile')
    expect(router.currentRoute.value.name).toBe('profile')
    const banner = wrapper.get('[role="alert"]')
    expect(banner.text()).toContain('Assay could not check whether you are signed in')
    expect(banner.text()).toContain('The database is not reachable.')

    await banner.get('button').trigger('click')
    await vi.waitFor(() => expect(wrapper.find('[role="alert"]').exists()).toBe(false))
    expect(wrapper.get('[data-test="user-menu"]').text()).toContain('Ada Admin')
    wrapper.unmount()
  })
})

describe('when the server cannot be reached', () => {
  it('shows an error banner with a retry button instead of redirecting', async () => {
    vi.mocked(fetchSetupStatus).mockRejectedValue(new TypeError('Failed to fetch'))
    const { wrapper, router } = await mountApp('/')
    expect(router.currentRoute.value.name).toBe('dashboard')
    const banner = wrapper.get('[role="alert"]')
    expect(banner.text()).toContain('Assay could not check whether it has been set up')
    expect(banner.text()).toContain('The server could not be reached.')

    vi.mocked(fetchSetupStatus).mockResolvedValue({ setupComplete: false, setupUrl: '/setup', passwordMinLength: 12, uploadMaxFileSize: 50 << 20, starterStandardsBuiltIn: true })
    await banner.get('button').trigger('click')
    // Opening the wizard loads its code first, which can take a moment in tests.
    await vi.waitFor(() => expect(router.currentRoute.value.name).toBe('setup'), { timeout: 10_000 })
    await flushPromises()
    expect(wrapper.find('[role="alert"]').exists()).toBe(false)
    wrapper.unmount()
  })
})
