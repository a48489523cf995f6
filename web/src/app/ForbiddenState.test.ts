import { mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import ForbiddenState from './ForbiddenState.vue'
import { createAppI18n } from './i18n'

function mountIn(locale: 'en' | 'de', permission: string) {
  const router = createRouter({ history: createMemoryHistory(), routes: [{ path: '/', name: 'dashboard', component: { template: '<div />' } }] })
  return mount(ForbiddenState, { props: { permission }, global: { plugins: [router, createAppI18n(locale)] } })
}

describe('ForbiddenState', () => {
  it('names the missing permission in words, not by its key, in English and German', () => {
    const en = mountIn('en', 'admin.users')
    expect(en.text()).toContain('it needs the permission “Manage users and invites”')
    expect(en.text()).not.toContain('admin.users')
    expect(en.get('[data-test="forbidden-permission"]').attributes('title')).toBe('admin.users')
    en.unmount()

    const de = mountIn('de', 'admin.users')
    expect(de.text()).toContain('„Benutzer und Einladungen verwalten“')
    de.unmount()
  })

  it('falls back to the key for a permission it has no words for', () => {
    const wrapper = mountIn('en', 'future.thing')
    expect(wrapper.text()).toContain('“future.thing”')
    wrapper.unmount()
  })
})
