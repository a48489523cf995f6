import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createAppI18n } from '../../../app/i18n'
import { AUTHOR, evidence, REVIEWER } from '../../../resources/evidence/fixtures'
import { searchPeople } from '../../../resources/people/api'
import { submitEvidence } from '../api'
import SubmitReviewDialog from './SubmitReviewDialog.vue'

vi.mock('../../../resources/people/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../resources/people/api')>()),
  searchPeople: vi.fn(),
}))
vi.mock('../api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api')>()),
  submitEvidence: vi.fn(),
}))

describe('SubmitReviewDialog', () => {
  beforeEach(() => {
    document.body.innerHTML = ''
    setActivePinia(createPinia())
    vi.mocked(searchPeople).mockReset().mockResolvedValue([AUTHOR, REVIEWER])
    vi.mocked(submitEvidence).mockReset()
  })

  it('offers the people who may review evidence, never its author, and submits to the one chosen', async () => {
    const record = evidence()
    const wrapper = mount(SubmitReviewDialog, {
      attachTo: document.body,
      props: { modelValue: false, evidence: record },
      global: { plugins: [createAppI18n('en')] },
    })
    await wrapper.setProps({ modelValue: true })
    await flushPromises()
    expect(searchPeople).toHaveBeenCalledWith('', 'evidence.review')
    const offered = wrapper.findAllComponents({ name: 'ElOption' }).map((option) => option.props('value'))
    expect(offered).toEqual([REVIEWER.id])

    vi.mocked(submitEvidence).mockResolvedValue({ ...record, state: 'in_review', reviewer: REVIEWER, version: record.version + 1 })
    wrapper.findComponent({ name: 'ElSelect' }).vm.$emit('update:modelValue', REVIEWER.id)
    await flushPromises()
    await wrapper.findComponent('[data-test="submit-confirm"]').trigger('click')
    await flushPromises()
    expect(submitEvidence).toHaveBeenCalledWith(record.id, record.version, REVIEWER.id)
    expect(wrapper.emitted('submitted')).toHaveLength(1)
  })
})
