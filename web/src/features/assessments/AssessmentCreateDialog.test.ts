import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createAppI18n } from '../../app/i18n'
import { usePreferencesStore } from '../../app/preferences'
import { signedInAssessee } from '../../app/session/fixtures'
import { useSessionStore } from '../../app/session/store'
import AssessmentCreateDialog from './AssessmentCreateDialog.vue'

vi.mock('../../resources/catalogue/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../resources/catalogue/api')>()),
  fetchPublishedStandards: vi.fn(async () => []),
  entityChoices: vi.fn(async () => []),
}))
vi.mock('../../resources/people/api', () => ({ peopleSearch: () => async () => [] }))

// teamHint is what the dialog says about the creator joining the team, for a user holding permissions.
async function teamHint(permissions: string[], locale: 'en' | 'de' = 'en'): Promise<string> {
  const pinia = createPinia()
  setActivePinia(pinia)
  usePreferencesStore().setLocale(locale)
  useSessionStore().me = { ...signedInAssessee, permissions }
  const wrapper = mount(AssessmentCreateDialog, {
    props: { modelValue: true, tags: [] },
    attachTo: document.body,
    global: { plugins: [pinia, createAppI18n(locale)] },
  })
  await flushPromises()
  const hint = document.querySelector('[data-test="team-hint"]')?.textContent?.trim() ?? ''
  wrapper.unmount()
  return hint
}

describe('AssessmentCreateDialog', () => {
  afterEach(() => {
    document.body.innerHTML = ''
  })

  it('tells a user who takes part in the assessments they see that they join the team', async () => {
    expect(await teamHint(['assessments.view', 'assessments.create'])).toBe('You join the team as an assessor unless you are on it already.')
  })

  it('tells a user who sees every assessment that they are not added to the team, and how to take part (EN and DE)', async () => {
    const hint = await teamHint(['assessments.view', 'assessments.view_all', 'assessments.create'])
    expect(hint).toContain('you are not added to its team')
    expect(hint).not.toContain('You join the team')
    expect(await teamHint(['assessments.view_all', 'assessments.create'], 'de')).toContain('nicht in das Team aufgenommen')
  })
})
