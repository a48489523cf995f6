import { flushPromises, mount } from '@vue/test-utils'
import { ElMessageBox } from 'element-plus'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../../api/errors'
import { createAppI18n } from '../../../app/i18n'
import { fetchCompletionCheck, transitionAssessment } from '../api'
import { anAssessment } from '../fixtures'
import StateStepper from './StateStepper.vue'

vi.mock('../api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api')>()),
  transitionAssessment: vi.fn(),
  fetchCompletionCheck: vi.fn(),
}))

const BLOCKED = {
  canComplete: false,
  completionEvidence: 'every_positive' as const,
  rationaleMinWords: 15,
  blockers: [
    { field: 'requirements' as const, code: 'unanswered' as const, count: 12 },
    { field: 'requirements' as const, code: 'missing_evidence' as const, count: 3 },
  ],
}
const READY = { canComplete: true, completionEvidence: 'at_least_one' as const, rationaleMinWords: 0, blockers: [] }

function dialogText(): string {
  return document.querySelector('[data-test="complete-dialog"]')?.textContent ?? ''
}

function confirmButton(): HTMLButtonElement {
  const button = document.querySelector<HTMLButtonElement>('[data-test="complete-confirm"]')
  if (!button) throw new Error('no Complete button in the dialog')
  return button
}

function mountStepper(assessment = anAssessment(), canManage = true) {
  return mount(StateStepper, { attachTo: document.body, props: { assessment, canManage }, global: { plugins: [createAppI18n('en')] } })
}

describe('StateStepper', () => {
  beforeEach(() => {
    vi.mocked(transitionAssessment).mockReset()
    vi.mocked(fetchCompletionCheck).mockReset().mockResolvedValue(READY)
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

  it('shows the reasons a move was refused, with their counts', async () => {
    vi.mocked(transitionAssessment).mockRejectedValue(
      new ApiError(422, 'business_rule_violation', 'refused', 'rq_1', [{ field: 'standards', code: 'no_requirements', message: 'No requirements found to load.' }]),
    )
    const wrapper = mountStepper(anAssessment({ state: 'new', allowedStates: ['in_progress', 'cancelled'], startedAt: undefined }))
    await wrapper.get('[data-test="move-start"]').trigger('click')
    await flushPromises()
    const reasons = wrapper.get('[data-test="preconditions"]')
    expect(reasons.text()).toContain('Start was refused')
    expect(reasons.findAll('li').map((li) => li.text())).toEqual([
      'There are no requirements to load: choose a standard, or give the entity a compliance policy or the project a standard.',
    ])
  })

  it('completes only through a dialog that says the rule and what is missing, with counts (issue 26 item 4)', async () => {
    vi.mocked(fetchCompletionCheck).mockResolvedValue(BLOCKED)
    const wrapper = mountStepper()
    await flushPromises()
    // The check fails: Complete is offered, but not as the primary move.
    expect(wrapper.get('[data-test="move-complete"]').classes()).not.toContain('el-button--primary')
    expect(wrapper.get('[data-test="complete-not-ready"]').text()).toBe('Not ready to complete')

    await wrapper.get('[data-test="move-complete"]').trigger('click')
    await flushPromises()
    expect(ElMessageBox.confirm).not.toHaveBeenCalled()
    expect(dialogText()).toContain('Every requirement answered, with a rationale of at least 15 words.')
    expect(dialogText()).toContain('Evidence must be linked to every requirement answered yes or partial.')
    const blockers = [...document.querySelectorAll('[data-test="completion-blockers"] li')].map((li) => li.textContent?.replace('Show them', '').trim())
    expect(blockers).toEqual(['12 requirements are unanswered', '3 requirements answered yes or partial have no evidence linked'])
    expect(confirmButton().disabled).toBe(true)
    expect(confirmButton().classList).not.toContain('el-button--primary')

    // "Show them" closes the dialog and narrows the requirements.
    document.querySelectorAll<HTMLButtonElement>('[data-test="completion-blockers"] li button')[1]!.click()
    await flushPromises()
    expect(wrapper.emitted('show-requirements')).toEqual([['noEvidence']])
    expect(transitionAssessment).not.toHaveBeenCalled()
  })

  it('completes from the dialog when the check passes', async () => {
    const next = anAssessment({ state: 'complete', allowedStates: ['in_progress', 'archived'], version: 5 })
    vi.mocked(transitionAssessment).mockResolvedValue(next)
    const wrapper = mountStepper()
    await flushPromises()
    expect(wrapper.get('[data-test="move-complete"]').classes()).toContain('el-button--primary')
    await wrapper.get('[data-test="move-complete"]').trigger('click')
    await flushPromises()
    expect(dialogText()).toContain('Evidence must be linked to at least one requirement')
    expect(dialogText()).toContain('Everything completing needs is there.')
    expect(confirmButton().disabled).toBe(false)
    expect(confirmButton().classList).toContain('el-button--primary')
    confirmButton().click()
    await flushPromises()
    expect(transitionAssessment).toHaveBeenCalledWith('as_1', 'complete', 4)
    expect(wrapper.emitted('changed')).toEqual([[next]])
  })
})
