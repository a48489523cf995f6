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
    vi.mocked(listClaims).mockReset().mockResolvedValue({ items: [claim], hasMore: false })
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

  it('shows the claims a page at a time, with Load more', async () => {
    vi.mocked(listClaims)
      .mockReset()
      .mockResolvedValueOnce({ items: [claim, { ...claim, id: 'cl_2', name: 'Input is validated' }], nextCursor: 'c2', hasMore: true })
      .mockResolvedValueOnce({ items: [{ ...claim, id: 'cl_3', name: 'Backups are not encrypted', isCounterClaim: true, countersClaimId: 'cl_1' }], hasMore: false })
    const { wrapper } = await mountAt('/assessments/as_1?tab=claims')
    expect(listClaims).toHaveBeenCalledWith('as_1', undefined)
    expect(wrapper.findAll('[data-test="claim-row"]')).toHaveLength(2)
    await wrapper.get('.admin-page__more button').trigger('click')
    await flushPromises()
    expect(listClaims).toHaveBeenLastCalledWith('as_1', 'c2')
    const rows = wrapper.findAll('[data-test="claim-row"]')
    expect(rows.map((row) => row.get('[data-test="claim-open"]').text())).toEqual(['Output is encoded', 'Input is validated', 'Backups are not encrypted'])
    expect(rows[2]!.text()).toContain('Disputes “Output is encoded”')
    expect(wrapper.find('.admin-page__more').exists()).toBe(false)
  })

  it('keeps the pages loaded when a claim in them is saved or deleted', async () => {
    vi.mocked(listClaims)
      .mockReset()
      .mockResolvedValueOnce({ items: [claim, { ...claim, id: 'cl_2', name: 'Input is validated', isCounterClaim: true, countersClaimId: 'cl_1' }], hasMore: false })
    const { wrapper } = await mountAt('/assessments/as_1?tab=claims')
    const drawer = wrapper.findComponent({ name: 'ClaimDetail' })
    drawer.vm.$emit('saved', { ...claim, name: 'Output is escaped', version: 3 })
    await flushPromises()
    expect(wrapper.findAll('[data-test="claim-open"]').map((link) => link.text())).toEqual(['Output is escaped', 'Input is validated'])
    drawer.vm.$emit('deleted', claim)
    await flushPromises()
    const rows = wrapper.findAll('[data-test="claim-row"]')
    expect(rows).toHaveLength(1)
    expect(rows[0]!.text()).not.toContain('Disputes')
    const editor = wrapper.findComponent({ name: 'ClaimEditorDialog' })
    editor.vm.$emit('saved', { ...claim, id: 'cl_4', name: 'Logs are kept' })
    await flushPromises()
    expect(wrapper.findAll('[data-test="claim-open"]').map((link) => link.text())).toEqual(['Input is validated', 'Logs are kept'])
    expect(listClaims).toHaveBeenCalledTimes(1)
  })
})
