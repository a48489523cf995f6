import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { createAppI18n } from '../../app/i18n'
import { usePreferencesStore } from '../../app/preferences'
import { useSessionStore } from '../../app/session/store'
import { settle } from '../../app/testing'
import { fetchPortfolio, fetchProjectChoice } from '../../resources/insight/api'
import { PORTFOLIO } from '../../resources/insight/fixtures'
import PortfolioPage from './PortfolioPage.vue'

vi.mock('../../resources/insight/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../resources/insight/api')>()),
  fetchPortfolio: vi.fn(),
  fetchProjectChoice: vi.fn(),
  projectChoices: vi.fn(async () => []),
}))
vi.mock('vue-echarts', () => ({ default: { name: 'ChartStub', props: ['option'], template: '<div data-test="chart-stub" />' } }))

async function mountPage(query: Record<string, string>) {
  const pinia = createPinia()
  setActivePinia(pinia)
  usePreferencesStore().setLocale('en')
  vi.spyOn(useSessionStore(), 'can').mockImplementation((perm) => perm !== 'projects.view' || query.noProjects === undefined)
  const stub = { template: '<div />' }
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/portfolio', name: 'portfolio', component: PortfolioPage },
      { path: '/assessments/:id', name: 'assessment', component: stub },
      { path: '/entities/:id', name: 'entity', component: stub },
    ],
  })
  await router.push({ path: '/portfolio', query })
  const wrapper = mount(PortfolioPage, { attachTo: document.body, global: { plugins: [pinia, router, createAppI18n('en')] } })
  await settle()
  return { wrapper, router }
}

describe('PortfolioPage', () => {
  afterEach(() => {
    document.body.innerHTML = ''
  })

  it('asks the server for the filters of the URL and names the chosen project', async () => {
    vi.mocked(fetchPortfolio).mockResolvedValue(PORTFOLIO)
    vi.mocked(fetchProjectChoice).mockResolvedValue({ value: 'pr_1', label: 'Checkout programme' })
    const { wrapper } = await mountPage({ project: 'pr_1', entityType: 'service', q: 'sh' })
    expect(fetchPortfolio).toHaveBeenCalledWith({ q: 'sh', project: 'pr_1', entityType: 'service' }, undefined)
    expect(fetchProjectChoice).toHaveBeenCalledWith('pr_1')
    expect(wrapper.get('h1').text()).toBe('Portfolio')
    expect(wrapper.text()).toContain('Entities 1–2 of 2')
  })

  it('keeps a changed filter in the URL and asks again; clearing asks for everything', async () => {
    vi.mocked(fetchPortfolio).mockResolvedValue(PORTFOLIO)
    const { wrapper, router } = await mountPage({ entityType: 'service' })
    await wrapper.get('input[data-test="portfolio-filter-q"]').setValue('shop')
    await new Promise((resolve) => setTimeout(resolve, 350)) // the pause after typing
    await settle()
    expect(router.currentRoute.value.query).toEqual({ q: 'shop', entityType: 'service' })
    expect(fetchPortfolio).toHaveBeenLastCalledWith({ q: 'shop', entityType: 'service' }, undefined)
    await wrapper.get('[data-test="portfolio-filter-clear"]').trigger('click')
    await settle()
    expect(router.currentRoute.value.query).toEqual({})
    expect(fetchPortfolio).toHaveBeenLastCalledWith({}, undefined)
  })
})
