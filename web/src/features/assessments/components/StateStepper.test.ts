import { flushPromises, mount } from '@vue/test-utils'
import { ElMessageBox } from 'element-plus'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../../api/errors'
import { createAppI18n } from '../../../app/i18n'
import { transitionAssessment } from '../api'
import { anAssessment } from '../fixtures'
import StateStepper from './StateStepper.vue'

vi.mock('../api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api')>()),
  transitionAssessment: vi.fn(),
}))

function mountStepper(assessment = anAssessment(), canManage = true) {
  return mount(StateStepper, { attachTo: document.body, props: { assessment, canManage }, global: { plugins: [createAppI18n('en')] } })
}

describe('StateStepper', () => {
  beforeEach(() => {
    vi.mocked(transitionAssessment).mockReset()
    vi.spyOn(ElMessageBox, 'confirm').mockResolvedValue('confirm' as never)
    document.body.innerHTML = ''
  })

  it('marks the current step and offers only the moves the server allows', () => {
    const wrapper = mountStepper()
    expect(wrapper.get('[aria-current="step"]').attributes('data-state')).toBe('in_progress')
    expect(wrapper.findAll('[data-test="state-actions"] button').map((b) => b.text())).toEqual(['Complete', 'Put on hold', 'Cancel assessment'])
  })

  it('offers nothing without the manage permission or when the state is final', () => {
    expect(mountStepper(anAssessment(), false).find('[data-test="state-actions"]').exists()).toBe(false)
    expect(mountStepper(anAssessment({ state: 'archived', allowedStates: [] })).find('[data-test="state-actions"]').exists()).toBe(false)
  })

  it('moves after a confirmation and hands the new assessment up', async () => {
    const next = anAssessment({ state: 'on_hold', allowedStates: ['in_progress', 'cancelled'], version: 5 })
    vi.mocked(transitionAssessment).mockResolvedValue(next)
    const wrapper = mountStepper()
    await wrapper.get('[data-test="move-hold"]').trigger('click')
    await flushPromises()
    expect(ElMessageBox.confirm).toHaveBeenCalled()
    expect(transitionAssessment).toHaveBeenCalledWith('as_1', 'on_hold', 4)
    expect(wrapper.emitted('changed')).toEqual([[next]])
  })

  it('shows the reasons a completion was refused, with their counts', async () => {
    vi.mocked(transitionAssessment).mockRejectedValue(
      new ApiError(422, 'business_rule_violation', 'refused', 'rq_1', [
        { field: 'requirements', code: 'unanswered', message: '12' },
        { field: 'requirements', code: 'missing_rationale', message: '1' },
        { code: 'no_evidence', message: '' },
      ]),
    )
    const wrapper = mountStepper()
    await wrapper.get('[data-test="move-complete"]').trigger('click')
    await flushPromises()
    const reasons = wrapper.get('[data-test="preconditions"]')
    expect(reasons.text()).toContain('Complete was refused')
    expect(reasons.findAll('li').map((li) => li.text().replace('Show them', '').trim())).toEqual([
      '12 requirements are unanswered',
      '1 requirement lacks a long enough rationale',
      'No evidence is linked to any requirement (needed unless every result is not applicable).',
    ])
    await reasons.get('li button').trigger('click')
    expect(wrapper.emitted('show-requirements')).toEqual([['unanswered']])
  })
})
