import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { ApiError } from '../../../api/client'
import { createAppI18n } from '../../../app/i18n'
import { signedInAssessee } from '../../../app/session/fixtures'
import { useSessionStore } from '../../../app/session/store'
import { createEvidence } from '../../../resources/evidence/api'
import type { Evidence } from '../../../resources/evidence/types'
import { listEvidence, listRequirements } from '../api'
import { anAssessment, aRequirement } from '../fixtures'
import EvidenceRequirementsField from './EvidenceRequirementsField.vue'
import EvidenceTab from './EvidenceTab.vue'

vi.mock('../api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api')>()),
  listEvidence: vi.fn(),
  listRequirements: vi.fn(),
}))
vi.mock('../../../resources/evidence/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../resources/evidence/api')>()),
  createEvidence: vi.fn(),
}))
vi.mock('../../../resources/catalogue/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../resources/catalogue/api')>()),
  fetchTagOptions: vi.fn(async () => []),
}))

const made = {
  id: 'ev_1', name: 'TLS config export', description: '', classification: '', isCounterEvidence: false, state: 'in_progress',
  author: { id: 'us_ada', username: 'ada', displayName: 'Ada Lovelace' }, attachmentCount: 0, tags: [], version: 1,
} as unknown as Evidence

async function mountAt(path: string) {
  const pinia = createPinia()
  setActivePinia(pinia)
  useSessionStore().me = { ...signedInAssessee, permissions: ['assessments.view', 'evidence.create'] }
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/assessments/:id', component: EvidenceTab, props: { assessment: anAssessment(), readOnly: false } },
      { path: '/evidence/:id', component: { template: '<p />' } },
    ],
  })
  await router.push(path)
  const wrapper = mount({ template: '<RouterView />' }, { attachTo: document.body, global: { plugins: [pinia, router, createAppI18n('en')] } })
  await flushPromises()
  return wrapper
}

async function openDialog(wrapper: Awaited<ReturnType<typeof mountAt>>) {
  await wrapper.get('[data-test="evidence-create"]').trigger('click')
  await flushPromises()
  const name = document.querySelector<HTMLInputElement>('.el-dialog input[name="name"]')!
  name.value = 'TLS config export'
  name.dispatchEvent(new Event('input'))
  await flushPromises()
}

async function submit() {
  const button = [...document.querySelectorAll<HTMLButtonElement>('.el-dialog button')].find((b) => b.textContent?.trim() === 'Create')!
  button.click()
  await flushPromises()
}

describe('EvidenceTab', () => {
  beforeEach(() => {
    document.body.innerHTML = ''
    vi.mocked(listEvidence).mockReset().mockResolvedValue({ items: [], hasMore: false })
    vi.mocked(listRequirements).mockReset().mockResolvedValue({ items: [aRequirement('a'), aRequirement('b', { name: '', description: 'Verify that TLS is used' })], rationaleMinWords: 0 })
    vi.mocked(createEvidence).mockReset().mockResolvedValue(made)
  })

  it('links new evidence to the chosen requirements in the create request, then lists it', async () => {
    const wrapper = await mountAt('/assessments/as_1?tab=evidence&requirement=b')
    await openDialog(wrapper)
    const field = wrapper.findComponent(EvidenceRequirementsField)
    expect(field.props('modelValue')).toEqual(['b']) // the requirement the URL names
    expect(document.querySelector('[data-test="evidence-link-requirements"]')?.textContent).toContain('Requirements it supports')
    expect(document.querySelector('[data-test="evidence-link-none"]')).toBeNull()
    field.vm.$emit('update:modelValue', ['b', 'a'])
    await flushPromises()

    vi.mocked(listEvidence).mockResolvedValue({ items: [made], hasMore: false })
    await submit()
    expect(createEvidence).toHaveBeenCalledTimes(1)
    expect(vi.mocked(createEvidence).mock.calls[0]?.[0]).toEqual({ name: 'TLS config export', requirementIds: ['b', 'a'] })
    expect(wrapper.text()).toContain('TLS config export')
    expect(wrapper.text()).not.toContain('No evidence is linked to this assessment yet.')
    expect(wrapper.findComponent(EvidenceTab).emitted('changed')).toHaveLength(1) // the coverage is read again
  })

  it('offers the requirements by identifier and text, and warns when none is chosen', async () => {
    const wrapper = await mountAt('/assessments/as_1?tab=evidence')
    await openDialog(wrapper)
    const field = wrapper.findComponent(EvidenceRequirementsField)
    expect(field.props('modelValue')).toEqual([])
    const labels = field.findAllComponents({ name: 'ElOption' }).map((option) => option.props('label'))
    expect(labels).toEqual(['A Requirement a', 'B Verify that TLS is used'])
    expect(document.querySelector('[data-test="evidence-link-none"]')?.textContent).toContain('will not appear in this assessment until you link it')

    await submit()
    expect(vi.mocked(createEvidence).mock.calls[0]?.[0]).toEqual({ name: 'TLS config export' })
    expect(wrapper.findComponent(EvidenceTab).emitted('changed')).toBeUndefined()
  })

  it('keeps the dialog open with the reason when the server refuses the links', async () => {
    vi.mocked(createEvidence).mockRejectedValue(
      new ApiError(409, 'conflict', 'The assessment is read-only.', 'req', [{ field: 'requirementIds', code: 'read_only', message: 'The assessment is read-only.' }]),
    )
    const wrapper = await mountAt('/assessments/as_1?tab=evidence&requirement=a')
    await openDialog(wrapper)
    await submit()
    await vi.waitFor(() => expect(document.querySelector('[data-test="evidence-link-requirements"] .el-form-item__error')?.textContent).toContain('The assessment is read-only.'))
    expect(document.querySelector('.el-dialog input[name="name"]')).not.toBeNull() // still open, the input kept
    expect(wrapper.findComponent(EvidenceRequirementsField).props('modelValue')).toEqual(['a'])
    expect(wrapper.findComponent(EvidenceTab).emitted('changed')).toBeUndefined()
  })

  it('still creates evidence when the requirements cannot be read, saying how to link it later', async () => {
    vi.mocked(listRequirements).mockRejectedValue(new ApiError(500, 'internal_error', 'boom', 'req'))
    const wrapper = await mountAt('/assessments/as_1?tab=evidence')
    await openDialog(wrapper)
    expect(document.querySelector('[data-test="evidence-link-failed"]')?.textContent).toContain('could not be loaded')
    await submit()
    expect(createEvidence).toHaveBeenCalledTimes(1)
  })
})
