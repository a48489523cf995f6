import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { describe, expect, it } from 'vitest'
import { createAppI18n } from '../../app/i18n'
import { usePreferencesStore } from '../../app/preferences'
import { notification } from '../../resources/events/fixtures'
import NotificationItem from './NotificationItem.vue'

// A notification says what happened, to what and by whom, in the reader's language —
// not "Evidence state changed".
function render(locale: 'en' | 'de', params: Record<string, string>, type = 'evidence.state_changed') {
  const pinia = createPinia()
  setActivePinia(pinia)
  usePreferencesStore().setLocale(locale)
  const item = notification({ type, title: 'Evidence state changed', message: 'SBOM (by Bea Reviewer)', link: '/evidence/ev_1', params })
  return mount(NotificationItem, {
    props: { notification: item, now: new Date('2025-03-12T14:05:00Z') },
    global: { plugins: [pinia, createAppI18n(locale)] },
  })
}

describe('NotificationItem', () => {
  it('tells the author their evidence was approved, and by whom', () => {
    const wrapper = render('en', { actor: 'Bea Reviewer', summary: 'SBOM', kind: 'approved', you: 'true' })
    expect(wrapper.find('.notification-item__title').text()).toContain('Your evidence was approved')
    expect(wrapper.find('.notification-item__message').text()).toBe('Bea Reviewer approved your evidence “SBOM”.')
  })

  it('tells a reviewer in German that evidence waits for their review', () => {
    const wrapper = render('de', { actor: 'Ann Author', summary: 'SBOM', kind: 'submitted', you: 'true' })
    expect(wrapper.find('.notification-item__title').text()).toContain('Nachweis zu Ihrer Prüfung eingereicht')
    expect(wrapper.find('.notification-item__message').text()).toBe('Ann Author hat „SBOM“ zu Ihrer Prüfung eingereicht.')
  })

  it('tells a new team member they were added', () => {
    const wrapper = render('en', { actor: 'Ada Admin', summary: 'Shop L1', you: 'true' }, 'assessment.assigned')
    expect(wrapper.find('.notification-item__title').text()).toContain('You were added to the team of an assessment')
    expect(wrapper.find('.notification-item__message').text()).toBe('Ada Admin added you to the team of the assessment “Shop L1”.')
  })
})
