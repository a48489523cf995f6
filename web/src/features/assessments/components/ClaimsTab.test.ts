import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { createAppI18n } from '../../../app/i18n'
import { signedInAssessee } from '../../../app/session/fixtures'
import { useSessionStore } from '../../../app/session/store'
import { fetchClaim } from '../../../resources/claims/api'
import { listClaims } from '../api'
import { anAssessment } from '../fixtures'
import type { Claim } from '../types'
import ClaimsTab from './ClaimsTab.vue'

vi.mock('../api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api')>()),
  listClaims: vi.fn(),
}))
vi.mock('../../../resources/claims/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../resources/claims/api')>()),
  fetchClaim: vi.fn(),
  fetchRequirementOptions: vi.fn(async () => []),
}))

const claim: Claim = {
  id: 'cl_1', assessmentId: 'as_1', name: 'Output is encoded', target: 'The checkout', predicate: 'encodes all output', reasoning: '',
  isCounterClaim: false, evidence: [], counterEvidence: [], mitigationStrategies: [], requirementIds: [], externalReferences: [],
  version: 2, createdAt: '2026-01-12T00:00:00Z', updatedAt: '2026-01-12T00:00:00Z',
}

async function mountAt(path: string) {
  const pinia = createPinia()
  setActivePinia(pinia)
  useSessionStore().me = { ...signedInAssessee, permissions: ['claims.view'] }
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/assessments/:id', component: ClaimsTab, props: { assessment: anAssessment(), readOnly: false } },
      { path: '/evidence/:id', name: 'evidence-detail', component: { template: '<p />' } },
    ],
  })
  await router.push(path)
  const wrapper = mount({ template: '<RouterView />' }, { attachTo: document.body, global: { plugins: [pinia, router, createAppI18n('en')] } })
  await flushPromises()
  return { wrapper, router }
}

describe('ClaimsTab', () => {
  beforeEach(() => {
    document.body.innerHTML = ''
    vi.mocked(listClaims).mockReset().mockResolvedValue([claim])
    vi.mocked(fetchClaim).mockReset().mockResolvedValue(claim)
  })

  it('opens the claim named in the URL in the drawer, and forgets it when closed', async () => {
    const { wrapper, router } = await mountAt('/assessments/as_1?tab=claims&claim=cl_1')
    expect(fetchClaim).toHaveBeenCalledWith('cl_1')
    const drawer = document.querySelector('[data-test="claim-detail"]')
    expect(drawer?.textContent).toContain('encodes all output')
    wrapper.findComponent({ name: 'ElDrawer' }).vm.$emit('update:modelValue', false)
    await flushPromises()
    expect(router.currentRoute.value.query).toEqual({ tab: 'claims' })
  })

  it('links each claim name to its drawer', async () => {
    const { wrapper } = await mountAt('/assessments/as_1?tab=claims')
    expect(fetchClaim).not.toHaveBeenCalled()
    expect(wrapper.get('[data-test="claim-open"]').attributes('href')).toBe('/assessments/as_1?tab=claims&claim=cl_1')
  })
})
