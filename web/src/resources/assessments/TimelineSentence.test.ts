import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { describe, expect, it } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { createAppI18n } from '../../app/i18n'
import { usePreferencesStore } from '../../app/preferences'
import type { TimelineEntry } from './timeline'
import TimelineSentence from './TimelineSentence.vue'

const entry = (action: string, targetName = 'Payments review'): TimelineEntry => ({
  id: 1, occurredAt: '2026-01-01T00:00:00Z', actor: { id: 'us_1', username: 'ada', displayName: 'Ada Lovelace' },
  action, targetType: 'attestation', targetId: 'at_1', targetName, targetLink: '/attestations/at_1', details: { assessment: 'Payments review' },
})

async function sentence(e: TimelineEntry, locale: 'en' | 'de' = 'en'): Promise<string> {
  const pinia = createPinia()
  setActivePinia(pinia)
  usePreferencesStore().setLocale(locale)
  const router = createRouter({ history: createMemoryHistory(), routes: [{ path: '/:p(.*)*', component: { template: '<div />' } }] })
  const wrapper = mount(TimelineSentence, { props: { entry: e, assessmentId: 'as_1' }, global: { plugins: [pinia, router, createAppI18n(locale)] } })
  return wrapper.text()
}

describe('TimelineSentence', () => {
  it('tells the attestation actions in words, in English and German', async () => {
    expect(await sentence(entry('affirmation.sealed'))).toBe('Ada Lovelace sealed the attestation of Payments review')
    expect(await sentence(entry('attestation.created'), 'de')).toBe('Ada Lovelace hat eine Attestierung von Payments review angelegt')
    expect(await sentence(entry('affirmation.frozen'))).not.toContain('affirmation.frozen')
  })

  it('words an action it has no sentence for as a change to its area, never as the code', async () => {
    const unnamed = await sentence(entry('attestation.teleported', ''))
    expect(unnamed).toBe('Ada Lovelace made a change (attestation)')
    expect(await sentence(entry('attestation.teleported'), 'de')).toBe('Ada Lovelace hat eine Änderung an Payments review vorgenommen (Attestierung)')
    expect(await sentence(entry('signing_key.rotated_twice', ''))).toBe('Ada Lovelace made a change (signing key)')
  })
})
