import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter, type Router } from 'vue-router'
import { createAppI18n } from '../../app/i18n'
import { signedInAssessee } from '../../app/session/fixtures'
import { useSessionStore } from '../../app/session/store'
import { listAttestations } from './api'
import AttestationsPage from './AttestationsPage.vue'
import { aSlot, anAttestation } from './fixtures'

vi.mock('./api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./api')>()),
  listAttestations: vi.fn(),
}))

let router: Router

async function mountPage(phone: boolean, path = '/attestations') {
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: phone && query.includes('max-width'), media: query, addEventListener() {}, removeEventListener() {} }))
  const pinia = createPinia()
  setActivePinia(pinia)
  useSessionStore().me = { ...signedInAssessee, permissions: ['attestations.view'] }
  router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/attestations', name: 'attestations', component: AttestationsPage },
      { path: '/attestations/verify', name: 'attestation-verify', component: { template: '<p />' } },
      { path: '/attestations/assessors', name: 'attestation-assessors', component: { template: '<p />' } },
      { path: '/attestations/:id', name: 'attestation', component: { template: '<p />' } },
    ],
  })
  await router.push(path)
  const wrapper = mount({ template: '<RouterView />' }, { global: { plugins: [pinia, router, createAppI18n('en')] } })
  await flushPromises()
  return wrapper
}

const sealed = anAttestation({
  id: 'at_2',
  state: 'sealed',
  score: 87.5,
  validUntil: '2099-06-30',
  signatories: [aSlot({ signedAt: '2026-03-02T10:00:00Z' }), aSlot({ id: 'sg_2' })],
})

describe('AttestationsPage', () => {
  beforeEach(() => {
    vi.mocked(listAttestations).mockReset().mockResolvedValue({ items: [sealed], hasMore: false })
  })

  it('lists attestations in a table: state, assessment and entity, score, validity, signatures', async () => {
    const wrapper = await mountPage(false)
    const table = wrapper.get('[data-test="attestation-table"]')
    expect(table.text()).toContain('Payments review')
    expect(table.text()).toContain('Payments service')
    expect(table.get('[data-test="attestation-state"]').attributes('data-state')).toBe('sealed')
    expect(table.get('[data-test="attestation-score"]').text()).toBe('87.5 %')
    expect(table.get('[data-test="attestation-signatures"]').text()).toBe('1 of 2')
    expect(table.text()).toContain('Jun 30, 2099')
    expect(wrapper.get('[data-test="attestation-link"]').attributes('href')).toBe('/attestations/at_2')
    expect(wrapper.find('[data-test="attestation-create"]').exists()).toBe(false) // no attestations.create
  })

  it("shows a draft's validity as the day signing would fix, marked so, on a desktop and a phone", async () => {
    const draft = anAttestation({ id: 'at_3', state: 'draft', validUntil: undefined, projectedValidUntil: '2027-10-31' })
    const open = anAttestation({ id: 'at_4', state: 'draft', validUntil: undefined, projectedValidUntil: undefined })
    vi.mocked(listAttestations).mockResolvedValue({ items: [draft, open, sealed], hasMore: false })
    for (const phone of [false, true]) {
      const wrapper = await mountPage(phone)
      const days = wrapper.findAll('[data-test="attestation-valid-until"]').map((cell) => cell.text())
      expect(days).toEqual(['Oct 31, 2027 (when signed)', '—', 'Jun 30, 2099'])
      wrapper.unmount()
    }
  })

  it('shows cards on a phone', async () => {
    const wrapper = await mountPage(true)
    expect(wrapper.find('[data-test="attestation-table"]').exists()).toBe(false)
    expect(wrapper.get('[data-test="attestation-cards"]').text()).toContain('1 of 2')
  })

  it('puts the state filter into the URL and asks the server for it', async () => {
    const wrapper = await mountPage(false)
    expect(vi.mocked(listAttestations).mock.calls[0]?.[0]).toEqual({ state: '', assessment: '' })
    wrapper.findComponent({ name: 'ElSelect' }).vm.$emit('update:modelValue', 'sealed')
    await flushPromises()
    expect(router.currentRoute.value.query).toEqual({ state: 'sealed' })
    expect(vi.mocked(listAttestations).mock.calls.at(-1)?.[0]).toEqual({ state: 'sealed', assessment: '' })
  })

  it('reads the filter from the URL and counts it on the Filters button', async () => {
    const wrapper = await mountPage(true, '/attestations?state=signing')
    expect(vi.mocked(listAttestations).mock.calls[0]?.[0]).toEqual({ state: 'signing', assessment: '' })
    expect(wrapper.get('[data-test="filters-active"]').text()).toBe('1')
  })
})
