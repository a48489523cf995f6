import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { createAppI18n } from '../../app/i18n'
import { usePreferencesStore } from '../../app/preferences'
import { fetchAuthOptions, type RegistrationMode } from '../../resources/auth-options/api'
import { listInvites } from './api'
import InvitesPage from './InvitesPage.vue'

vi.mock('./api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./api')>()),
  listInvites: vi.fn(async () => ({ items: [], hasMore: false })),
}))
vi.mock('../../resources/roles/api', () => ({ fetchRoles: vi.fn(async () => [{ id: 'ro_1', name: 'assessee' }]) }))
vi.mock('../../resources/events/api', () => ({ fetchChannelStatus: vi.fn(async () => ({ email: false })) }))
vi.mock('../../resources/auth-options/api', () => ({ fetchAuthOptions: vi.fn() }))

const WARNING = 'Invites cannot be redeemed'

async function mountWith(mode: RegistrationMode | Error, locale: 'en' | 'de' = 'en') {
  if (mode instanceof Error) vi.mocked(fetchAuthOptions).mockRejectedValue(mode)
  else vi.mocked(fetchAuthOptions).mockResolvedValue({ passwordReset: false, registrationMode: mode })
  const pinia = createPinia()
  setActivePinia(pinia)
  usePreferencesStore().setLocale(locale)
  const router = createRouter({ history: createMemoryHistory(), routes: [{ path: '/admin/invites', component: InvitesPage }] })
  await router.push('/admin/invites')
  const wrapper = mount(InvitesPage, { attachTo: document.body, global: { plugins: [pinia, router, createAppI18n(locale)] } })
  await flushPromises()
  return wrapper
}

// modeShown is the label and the tag of the read-only registration mode.
function modeShown(wrapper: VueWrapper): string[] {
  const mode = wrapper.get('[data-test="registration-mode"]')
  return [mode.get('.registration-mode__label').text(), mode.get('.el-tag').text()]
}

async function openCreateDialog(): Promise<HTMLElement> {
  const button = [...document.querySelectorAll('button')].find((b) => b.textContent?.includes('Create invite'))
  button?.click()
  await flushPromises()
  const dialog = document.querySelector<HTMLElement>('.el-dialog')
  if (!dialog) throw new Error('the create-invite dialog did not open')
  return dialog
}

describe('InvitesPage and the registration mode', () => {
  beforeEach(() => {
    vi.mocked(fetchAuthOptions).mockReset()
    document.body.innerHTML = ''
  })

  it('warns on the page and in the dialog that invites cannot be redeemed while registration is disabled', async () => {
    const wrapper = await mountWith('disabled')
    const warning = wrapper.get('[data-test="registration-disabled"]')
    expect(warning.text()).toContain(WARNING)
    expect(warning.text()).toContain('REGISTRATION_MODE to invite_only or open')
    expect(modeShown(wrapper)).toEqual(['Registration:', 'Disabled'])

    const dialog = await openCreateDialog()
    expect(dialog.querySelector('[data-test="registration-disabled"]')?.textContent).toContain(WARNING)
    wrapper.unmount()
  })

  it.each([
    ['invite_only', 'Invite only'],
    ['open', 'Open to anyone'],
  ] as const)('shows the mode %s read-only without a warning', async (mode, label) => {
    const wrapper = await mountWith(mode)
    expect(modeShown(wrapper)).toEqual(['Registration:', label])
    expect(wrapper.get('[data-test="registration-mode"]').text()).toContain('cannot be changed here')
    expect(wrapper.find('[data-test="registration-disabled"]').exists()).toBe(false)
    const dialog = await openCreateDialog()
    expect(dialog.querySelector('[data-test="registration-disabled"]')).toBeNull()
    wrapper.unmount()
  })

  it('says nothing about the mode when the server cannot tell it', async () => {
    const wrapper = await mountWith(new Error('offline'))
    expect(wrapper.find('[data-test="registration-mode"]').exists()).toBe(false)
    expect(wrapper.find('[data-test="registration-disabled"]').exists()).toBe(false)
    wrapper.unmount()
  })

  it('warns in German too', async () => {
    const wrapper = await mountWith('disabled', 'de')
    expect(wrapper.get('[data-test="registration-disabled"]').text()).toContain('Einladungen können nicht eingelöst werden')
    expect(modeShown(wrapper)).toEqual(['Registrierung:', 'Abgeschaltet'])
    wrapper.unmount()
  })
})

describe('InvitesPage on a phone', () => {
  beforeEach(() => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query.includes('max-width'), media: query, addEventListener() {}, removeEventListener() {} }))
    document.body.innerHTML = ''
  })
  afterEach(() => vi.unstubAllGlobals())

  it('says there is no invite in one line of text, not in the squeezed empty row of a table (German)', async () => {
    const wrapper = await mountWith('invite_only', 'de')
    expect(wrapper.find('.el-table').exists()).toBe(false)
    expect(wrapper.get('[data-test="invites-empty"]').text()).toBe('Noch keine Einladungen.')
    wrapper.unmount()
  })

  it('shows each invite as a card with its status, role, dates and the revoke button in view', async () => {
    vi.mocked(listInvites).mockResolvedValueOnce({ hasMore: false, items: [{
      id: 'in_1', email: 'carol@example.com', intendedRole: 'assessee', status: 'unused', createdBy: 'us_1',
      createdAt: '2026-11-01T10:00:00Z', expiresAt: '2026-11-08T10:00:00Z',
    }] })
    const wrapper = await mountWith('invite_only')
    const card = wrapper.get('[data-test="invite-card"]')
    expect(card.text()).toContain('carol@example.com')
    expect(card.text()).toContain('Unused')
    expect(card.text()).toContain('Expires')
    expect(card.get('button').attributes('aria-label')).toContain('carol@example.com')
    wrapper.unmount()
  })
})
