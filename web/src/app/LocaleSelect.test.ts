import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { describe, expect, it } from 'vitest'
import { createAppI18n } from './i18n'
import LocaleSelect from './LocaleSelect.vue'
import { usePreferencesStore } from './preferences'

describe('LocaleSelect', () => {
  it('shows the chosen language by its own name, and by its code for where the header is short of room', () => {
    const pinia = createPinia()
    setActivePinia(pinia)
    usePreferencesStore().setLocale('de')
    const wrapper = mount(LocaleSelect, { global: { plugins: [pinia, createAppI18n('de')] } })
    expect(wrapper.get('.locale-select__name').text()).toBe('Deutsch')
    expect(wrapper.get('.locale-select__code').text()).toBe('DE')
    expect(wrapper.get('.locale-select__code').attributes('aria-hidden')).toBe('true')
    wrapper.unmount()
  })
})
