import { mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { createAppI18n } from '../../../app/i18n'
import { PROJECT_STATES } from '../types'
import ProjectStateTag from './ProjectStateTag.vue'

describe('ProjectStateTag', () => {
  it.each([
    ['new', 'New', 'Neu'],
    ['in_progress', 'In progress', 'In Arbeit'],
    ['on_hold', 'On hold', 'Pausiert'],
    ['complete', 'Complete', 'Abgeschlossen'],
    ['operational', 'Operational', 'In Betrieb'],
    ['retired', 'Retired', 'Stillgelegt'],
  ] as const)('shows %s as %s / %s', (state, english, german) => {
    const en = mount(ProjectStateTag, { props: { state }, global: { plugins: [createAppI18n('en')] } })
    expect(en.text()).toBe(english)
    expect(en.get('[data-test="project-state"]').attributes('data-state')).toBe(state)
    const de = mount(ProjectStateTag, { props: { state }, global: { plugins: [createAppI18n('de')] } })
    expect(de.text()).toBe(german)
  })

  it('colours states by family: on hold warns, complete succeeds', () => {
    const tone = (state: (typeof PROJECT_STATES)[number]) =>
      mount(ProjectStateTag, { props: { state }, global: { plugins: [createAppI18n('en')] } }).get('.el-tag').classes()
    expect(tone('on_hold')).toContain('el-tag--warning')
    expect(tone('complete')).toContain('el-tag--success')
    expect(tone('in_progress')).toContain('el-tag--primary')
  })
})
