import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { createAppI18n } from '../../app/i18n'
import { signedInAssessee } from '../../app/session/fixtures'
import { useSessionStore } from '../../app/session/store'
import { evidence } from '../../resources/evidence/fixtures'
import { listEvidence } from './api'
import EvidencePage from './EvidencePage.vue'

vi.mock('./api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./api')>()),
  listEvidence: vi.fn(),
}))
vi.mock('../../resources/catalogue/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../resources/catalogue/api')>()),
  fetchTagOptions: vi.fn(async () => []),
}))

async function mountPage(phone: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: phone && query.includes('max-width'), media: query, addEventListener() {}, removeEventListener() {} }))
  const pinia = createPinia()
  setActivePinia(pinia)
  useSessionStore().me = { ...signedInAssessee, permissions: ['evidence.view'] }
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/evidence', name: 'evidence', component: EvidencePage },
      { path: '/evidence/:id', name: 'evidence-detail', component: { template: '<p />' } },
    ],
  })
  await router.push('/evidence?state=claimed&counter=true')
  const wrapper = mount({ template: '<RouterView />' }, { global: { plugins: [pinia, router, createAppI18n('en')] } })
  await flushPromises()
  return wrapper
}

describe('EvidencePage', () => {
  beforeEach(() => {
    vi.mocked(listEvidence).mockReset().mockResolvedValue({ items: [evidence({ state: 'claimed' })], hasMore: false })
  })

  it('lists evidence in a table on a wide screen', async () => {
    const wrapper = await mountPage(false)
    expect(wrapper.find('[data-test="evidence-table"]').exists()).toBe(true)
    expect(wrapper.find('[data-test="evidence-cards"]').exists()).toBe(false)
  })

  it('lists evidence as cards on a phone, with the active filters counted on the Filters button', async () => {
    const wrapper = await mountPage(true)
    expect(wrapper.find('[data-test="evidence-table"]').exists()).toBe(false)
    expect(wrapper.get('[data-test="evidence-cards"]').text()).toContain('Penetration test report')
    expect(wrapper.get('[data-test="evidence-link"]').attributes('href')).toBe('/evidence/ev_1')
    expect(wrapper.get('[data-test="filters-active"]').text()).toBe('2')
  })
})
