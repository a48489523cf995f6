import { mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { createAppI18n } from '../../../app/i18n'
import { ENTITY_STATES, ENTITY_TYPES } from '../types'
import EntityStateTag from './EntityStateTag.vue'
import EntityTypeIcon from './EntityTypeIcon.vue'

describe('EntityStateTag', () => {
  it.each([
    ['active', 'Active', 'Aktiv', 'el-tag--success'],
    ['inactive', 'Inactive', 'Inaktiv', 'el-tag--warning'],
    ['archived', 'Archived', 'Archiviert', 'el-tag--info'],
  ] as const)('shows %s as %s / %s', (state, english, german, tone) => {
    const en = mount(EntityStateTag, { props: { state }, global: { plugins: [createAppI18n('en')] } })
    expect(en.text()).toBe(english)
    expect(en.get('.el-tag').classes()).toContain(tone)
    const de = mount(EntityStateTag, { props: { state }, global: { plugins: [createAppI18n('de')] } })
    expect(de.text()).toBe(german)
  })

  it('covers every state', () => {
    expect(ENTITY_STATES).toEqual(['active', 'inactive', 'archived'])
  })
})

describe('EntityTypeIcon', () => {
  it('names every type in both languages', () => {
    for (const locale of ['en', 'de'] as const) {
      for (const type of ENTITY_TYPES) {
        const wrapper = mount(EntityTypeIcon, { props: { type }, global: { plugins: [createAppI18n(locale)] } })
        expect(wrapper.text(), `${locale} ${type}`).not.toMatch(/^entities\./)
        expect(wrapper.text()).not.toBe('')
      }
    }
  })

  it('gives the icon an accessible name when it stands alone', () => {
    const wrapper = mount(EntityTypeIcon, {
      props: { type: 'business_unit', iconOnly: true },
      global: { plugins: [createAppI18n('en')] },
    })
    expect(wrapper.get('[role="img"]').attributes('aria-label')).toBe('Business unit')
    expect(wrapper.text()).toBe('')
  })
})
