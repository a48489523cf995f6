import { mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { createAppI18n } from '../../app/i18n'
import TagChip from './TagChip.vue'
import TagColorSwatches from './TagColorSwatches.vue'

describe('TagChip', () => {
  it('fills the chip with the tag colour and writes in a readable colour', () => {
    const light = mount(TagChip, { props: { name: 'pci', color: '#FDE68A' } })
    const style = (light.get('[data-test="tag-chip"]').element as HTMLElement).style
    expect(style.backgroundColor).toBe('rgb(253, 230, 138)')
    expect(style.color).toBe('rgb(0, 0, 0)')
    expect(light.text()).toBe('pci')
    const dark = mount(TagChip, { props: { name: 'gdpr', color: '#1e3a8a' } })
    expect((dark.get('[data-test="tag-chip"]').element as HTMLElement).style.color).toBe('rgb(255, 255, 255)')
  })

  it('uses the default colour for an invalid one, and emits close', async () => {
    const wrapper = mount(TagChip, { props: { name: 'x', color: 'purple-ish', closable: true } })
    expect((wrapper.get('[data-test="tag-chip"]').element as HTMLElement).style.backgroundColor).toBe('rgb(79, 70, 229)')
    await wrapper.get('.el-tag__close').trigger('click')
    expect(wrapper.emitted('close')).toHaveLength(1)
  })
})

describe('TagColorSwatches', () => {
  function mountSwatches(modelValue: string) {
    return mount(TagColorSwatches, { props: { modelValue }, global: { plugins: [createAppI18n('en')] } })
  }

  it('is a radio group with the current preset checked', () => {
    const wrapper = mountSwatches('#2563EB')
    const radios = wrapper.findAll('[role="radio"]')
    expect(radios).toHaveLength(12)
    const checked = radios.filter((radio) => radio.attributes('aria-checked') === 'true')
    expect(checked.map((radio) => radio.attributes('aria-label'))).toEqual(['Blue'])
    expect(checked[0]!.attributes('tabindex')).toBe('0')
  })

  it('emits the chosen preset and moves along with the arrow keys', async () => {
    const wrapper = mountSwatches('#2563eb')
    await wrapper.get('[data-color="#dc2626"]').trigger('click')
    await wrapper.get('[data-color="#2563eb"]').trigger('keydown', { key: 'ArrowRight' })
    await wrapper.get('[data-color="#4f46e5"]').trigger('keydown', { key: 'ArrowLeft' })
    expect(wrapper.emitted('update:modelValue')).toEqual([['#dc2626'], ['#0891b2'], ['#475569']])
  })

  it('leaves every swatch unchecked for a custom colour, keeping the first focusable', () => {
    const wrapper = mountSwatches('#123456')
    const radios = wrapper.findAll('[role="radio"]')
    expect(radios.some((radio) => radio.attributes('aria-checked') === 'true')).toBe(false)
    expect(radios[0]!.attributes('tabindex')).toBe('0')
  })
})
