import { mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { createAppI18n } from './i18n'
import { usePreferencesStore } from './preferences'
import { signedInAdmin, signedInPinia } from './session/fixtures'
import { nameStartsWithLabel } from './testing'
import UserMenu from './UserMenu.vue'

describe('UserMenu', () => {
  it.each([
    ['en', 'Ada Admin – account menu'],
    ['de', 'Ada Admin – Kontomenü'],
  ] as const)('names its trigger beginning with the name it shows, the initials drawn, not written (%s)', async (locale, name) => {
    const pinia = signedInPinia(signedInAdmin)
    usePreferencesStore().setLocale(locale)
    const router = createRouter({ history: createMemoryHistory(), routes: [{ path: '/', component: { template: '<p />' } }] })
    const wrapper = mount(UserMenu, { global: { plugins: [pinia, router, createAppI18n(locale)] } })
    const trigger = wrapper.get('[data-test="user-menu"]')
    expect(trigger.attributes('aria-label')).toBe(name)
    // The text of the button is what axe-core takes as its visible label: the initials, as
    // text, made it "AAAda Admin", which neither the old name ("Account menu of Ada Admin")
    // nor the new one contains.
    expect(trigger.element.textContent?.trim()).toBe('Ada Admin')
    expect(nameStartsWithLabel(trigger.element.textContent ?? '', trigger.attributes('aria-label'))).toBe(true)
    const avatar = trigger.get('.user-avatar')
    expect(avatar.attributes('data-initials')).toBe('AA')
    expect(avatar.attributes('aria-hidden')).toBe('true')
    wrapper.unmount()
  })
})
