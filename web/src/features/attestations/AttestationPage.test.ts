import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { createAppI18n } from '../../app/i18n'
import { signedInAssessee } from '../../app/session/fixtures'
import { useSessionStore } from '../../app/session/store'
import { fetchAttestation } from './api'
import AttestationPage from './AttestationPage.vue'
import { aSlot, anAttestation } from './fixtures'
import type { Attestation } from './types'

vi.mock('./api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./api')>()),
  fetchAttestation: vi.fn(),
  listMap: vi.fn(async () => []),
}))

async function mountPage(attestation: Attestation, locale: 'en' | 'de' = 'en') {
  vi.mocked(fetchAttestation).mockResolvedValue(attestation)
  const pinia = createPinia()
  setActivePinia(pinia)
  useSessionStore().me = { ...signedInAssessee, permissions: ['attestations.view'] }
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/attestations/:id', name: 'attestation', component: AttestationPage },
      { path: '/attestations', name: 'attestations', component: { template: '<p />' } },
      { path: '/:p(.*)*', component: { template: '<p />' } },
    ],
  })
  await router.push(`/attestations/${attestation.id}`)
  const wrapper = mount({ template: '<RouterView />' }, { global: { plugins: [pinia, router, createAppI18n(locale)] } })
  await flushPromises()
  return wrapper
}

const validity = (wrapper: Awaited<ReturnType<typeof mountPage>>) => {
  const value = wrapper.get('[data-test="attestation-valid-until"]')
  return [value.element.previousElementSibling?.textContent?.trim(), value.text()]
}

describe('AttestationPage', () => {
  it('shows a draft the validity its first signature will fix, not "No end"', async () => {
    const wrapper = await mountPage(anAttestation({ projectedValidUntil: '2027-10-31' }))
    expect(validity(wrapper)).toEqual(['Valid until (when signed)', 'Oct 31, 2027'])
    wrapper.unmount()
    const german = await mountPage(anAttestation({ projectedValidUntil: '2027-10-31' }), 'de')
    expect(validity(german)[0]).toBe('Gültig bis (nach Unterzeichnung)')
  })

  it('says "No end" for a draft only when none of its cited evidence expires', async () => {
    const wrapper = await mountPage(anAttestation())
    expect(validity(wrapper)).toEqual(['Valid until (when signed)', 'No end'])
  })

  it('shows the fixed day once signing began', async () => {
    const signing = anAttestation({ state: 'signing', validUntil: '2027-10-31', frozenAt: '2026-03-02T10:00:00Z', signatories: [aSlot({ signedAt: '2026-03-02T10:00:00Z' })] })
    const wrapper = await mountPage(signing)
    expect(validity(wrapper)).toEqual(['Valid until', 'Oct 31, 2027'])
  })
})
