import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { api } from '../../../api/client'
import { createAppI18n } from '../../../app/i18n'
import { aClaim } from '../../../resources/claims/fixtures'
import { anAttestation } from '../fixtures'
import ClaimsTab from './ClaimsTab.vue'

vi.mock('../../../api/client', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../api/client')>()
  return { ...actual, api: { GET: vi.fn(), POST: vi.fn(), DELETE: vi.fn(), PATCH: vi.fn() } }
})

const ok = (data: unknown) => Promise.resolve({ data, response: new Response(null, { status: 200 }) })

async function mountTab() {
  const pinia = createPinia()
  setActivePinia(pinia)
  const router = createRouter({ history: createMemoryHistory(), routes: [{ path: '/:any(.*)', component: { template: '<p />' } }] })
  const wrapper = mount(ClaimsTab, {
    attachTo: document.body,
    props: { attestation: anAttestation({ claimIds: ['cl_1'] }), editable: true },
    global: { plugins: [pinia, router, createAppI18n('en')] },
  })
  await flushPromises()
  return wrapper
}

describe('the claims of an attestation', () => {
  beforeEach(() => {
    document.body.innerHTML = ''
    vi.mocked(api.GET)
      .mockReset()
      .mockImplementationOnce((() => ok({ items: [aClaim({ id: 'cl_1' }), aClaim({ id: 'cl_2' })], nextCursor: 'c2', hasMore: true })) as never)
      .mockImplementationOnce((() => ok({ items: [aClaim({ id: 'cl_3' })], hasMore: false })) as never)
    vi.mocked(api.PATCH)
      .mockReset()
      .mockImplementation((() => ok(anAttestation({ claimIds: ['cl_1', 'cl_2', 'cl_3'], version: 5 }))) as never)
  })

  it('offers every claim of the assessment, beyond the first page, and saves the choice of all of them', async () => {
    const wrapper = await mountTab()
    expect(api.GET).toHaveBeenCalledTimes(2)
    expect(vi.mocked(api.GET).mock.calls[1]?.[1]).toMatchObject({ params: { query: { cursor: 'c2' } } })
    expect(wrapper.findAll('[data-test="attestation-claim"]').map((row) => row.attributes('data-id'))).toEqual(['cl_1', 'cl_2', 'cl_3'])
    expect(wrapper.text()).toContain('1 of 3')
    const all = wrapper.findAll('button').find((button) => button.text() === 'All')!
    await all.trigger('click')
    await wrapper.get('[data-test="claims-save"]').trigger('click')
    await flushPromises()
    expect(api.PATCH).toHaveBeenCalledWith('/api/v1/attestations/{id}', {
      params: { path: { id: 'at_1' } },
      body: { version: 4, claimIds: ['cl_1', 'cl_2', 'cl_3'] },
    })
  })
})
