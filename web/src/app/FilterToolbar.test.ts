import { mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import FilterToolbar from './FilterToolbar.vue'
import { createAppI18n } from './i18n'

describe('FilterToolbar', () => {
  function mountToolbar(active: number) {
    return mount(FilterToolbar, {
      props: { active },
      slots: { search: '<input data-test="q" />', default: '<select data-test="state" />' },
      global: { plugins: [createAppI18n('en')] },
    })
  }

  it('keeps the search box out of the collapsible panel and toggles the panel', async () => {
    const wrapper = mountToolbar(0)
    const toggle = wrapper.get('[data-test="filters-toggle"]')
    const panel = wrapper.get('[data-test="filters-panel"]')
    expect(panel.find('[data-test="state"]').exists()).toBe(true)
    expect(panel.find('[data-test="q"]').exists()).toBe(false)
    expect(toggle.attributes('aria-controls')).toBe(panel.attributes('id'))
    expect(toggle.attributes('aria-expanded')).toBe('false')
    expect(wrapper.find('[data-test="filters-active"]').exists()).toBe(false)
    await toggle.trigger('click')
    expect(toggle.attributes('aria-expanded')).toBe('true')
    expect(wrapper.classes()).toContain('is-open')
  })

  it('tells how many filters are active', () => {
    const wrapper = mountToolbar(3)
    expect(wrapper.get('[data-test="filters-active"]').text()).toBe('3')
    expect(wrapper.get('[data-test="filters-toggle"]').text()).toContain('3 filters active')
  })
})
