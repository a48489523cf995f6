import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory } from 'vue-router'
import { fetchHealth } from '../features/dashboard/api'
import { fetchSetupStatus } from '../features/setup/api'
import App from './App.vue'
import { createAppI18n } from './i18n'
import { usePreferencesStore } from './preferences'
import { createAppRouter } from './router'

vi.mock('../features/setup/api', () => ({
  fetchSetupStatus: vi.fn(),
  createFirstAdministrator: vi.fn(),
}))
vi.mock('../features/dashboard/api', () => ({
  API_DOCS_URL: '/api/v1/docs',
  fetchHealth: vi.fn(),
}))

// mountApp renders the whole application at `path` with setup complete.
async function mountApp(path: string) {
  const pinia = createPinia()
  setActivePinia(pinia)
  const preferences = usePreferencesStore()
  const router = createAppRouter(createMemoryHistory())
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
  vi.mocked(fetchSetupStatus).mockResolvedValue({ setupComplete: true, setupUrl: '/setup', passwordMinLength: 12 })
  vi.mocked(fetchHealth).mockResolvedValue({ status: 'ok', version: '1.2.3', uptime: 5, database: 'ok', storage: 'ok' })
})

describe('the application shell', () => {
  it('shows the product name and only navigation entries whose pages exist', async () => {
    const { wrapper } = await mountApp('/')
    const nav = wrapper.get('nav[aria-label="Main navigation"]')
    expect(wrapper.get('header').text()).toContain('Assay')
    expect(nav.findAll('a').map((link) => link.text())).toEqual(['Dashboard'])
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

describe('when the server cannot be reached', () => {
  it('shows an error banner with a retry button instead of redirecting', async () => {
    vi.mocked(fetchSetupStatus).mockRejectedValue(new TypeError('Failed to fetch'))
    const { wrapper, router } = await mountApp('/')
    expect(router.currentRoute.value.name).toBe('dashboard')
    const banner = wrapper.get('[role="alert"]')
    expect(banner.text()).toContain('Assay could not check whether it has been set up')
    expect(banner.text()).toContain('The server could not be reached.')

    vi.mocked(fetchSetupStatus).mockResolvedValue({ setupComplete: false, setupUrl: '/setup', passwordMinLength: 12 })
    await banner.get('button').trigger('click')
    // Opening the wizard loads its code first, which can take a moment in tests.
    await vi.waitFor(() => expect(router.currentRoute.value.name).toBe('setup'), { timeout: 10_000 })
    await flushPromises()
    expect(wrapper.find('[role="alert"]').exists()).toBe(false)
    wrapper.unmount()
  })
})
