import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { createAppI18n } from '../../app/i18n'
import { usePreferencesStore } from '../../app/preferences'
import { listWebhooks, type Webhook } from '../../resources/destinations/api'
import WebhooksPage from './WebhooksPage.vue'

vi.mock('../../resources/destinations/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../resources/destinations/api')>()),
  listWebhooks: vi.fn(),
}))
vi.mock('../../resources/events/api', () => ({ fetchEventTypes: vi.fn(async () => []), fetchChannelStatus: vi.fn(async () => null) }))

const receiver: Webhook = {
  id: 'wh_1', name: 'Receiver', description: 'Our SIEM', url: 'https://siem.example.com/hook', active: false, disabledAt: '2026-11-01T10:00:00Z',
  consecutiveFailures: 7, eventTypes: [], createdAt: '2026-11-01T10:00:00Z', createdBy: 'u_1', updatedAt: '2026-11-01T10:00:00Z', version: 1,
}

async function mountPage(locale: 'en' | 'de' = 'en') {
  const pinia = createPinia()
  setActivePinia(pinia)
  usePreferencesStore().setLocale(locale)
  const router = createRouter({ history: createMemoryHistory(), routes: [{ path: '/admin/webhooks', component: WebhooksPage }] })
  await router.push('/admin/webhooks')
  const wrapper = mount(WebhooksPage, { attachTo: document.body, global: { plugins: [pinia, router, createAppI18n(locale)] } })
  await flushPromises()
  return wrapper
}

describe('WebhooksPage', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    document.body.innerHTML = ''
  })

  it('shows each webhook as a card on a phone, with its status, failures and actions in view', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query.includes('max-width'), media: query, addEventListener() {}, removeEventListener() {} }))
    vi.mocked(listWebhooks).mockResolvedValueOnce({ items: [receiver], hasMore: false })
    const wrapper = await mountPage()
    expect(wrapper.find('.el-table').exists()).toBe(false)
    const card = wrapper.get('[data-test="webhook-card"]')
    expect(card.text()).toContain('Receiver')
    expect(card.text()).toContain('https://siem.example.com/hook')
    expect(card.text()).toContain('Failures: 7')
    expect(card.findAll('button').map((b) => b.attributes('aria-label'))).toEqual(
      expect.arrayContaining(['Delivery log of Receiver', 'Edit Receiver']),
    )
    wrapper.unmount()
  })

  it('says there are none on a phone in a paragraph of its own', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query.includes('max-width'), media: query, addEventListener() {}, removeEventListener() {} }))
    vi.mocked(listWebhooks).mockResolvedValueOnce({ items: [], hasMore: false })
    const wrapper = await mountPage('de')
    expect(wrapper.get('.list-cards__empty').text()).toBe('Noch keine Webhooks.')
    wrapper.unmount()
  })

  it('keeps the table on a wide screen', async () => {
    vi.mocked(listWebhooks).mockResolvedValueOnce({ items: [receiver], hasMore: false })
    const wrapper = await mountPage()
    expect(wrapper.find('.el-table').exists()).toBe(true)
    expect(wrapper.find('[data-test="webhook-card"]').exists()).toBe(false)
    wrapper.unmount()
  })
})
