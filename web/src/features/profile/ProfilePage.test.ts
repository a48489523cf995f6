import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { ApiError } from '../../api/errors'
import { createAppI18n } from '../../app/i18n'
import { usePreferencesStore } from '../../app/preferences'
import type { Me } from '../../app/session/api'
import { signedInAdmin, signedInAssessee } from '../../app/session/fixtures'
import { useSessionStore } from '../../app/session/store'
import { useSetupStore } from '../../app/setup/store'
import { listApiKeys } from '../../resources/api-keys/api'
import { fetchSignatureImage } from '../../resources/signature/api'
import { changePassword, listSigningKeys, updateProfile } from './api'
import ProfilePage from './ProfilePage.vue'

vi.mock('./api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./api')>()),
  changePassword: vi.fn(),
  updateProfile: vi.fn(),
  listSigningKeys: vi.fn(async () => ({ keys: [], heldKeysAvailable: true })),
}))
vi.mock('../../resources/api-keys/api', async (importOriginal) => {
  const { mockedApiKeys } = await import('../../resources/api-keys/fixtures')
  return mockedApiKeys(await importOriginal(), vi.fn(async () => ({ items: [], hasMore: false })))
})
vi.mock('../../app/session/api', () => ({ fetchMe: vi.fn(), signOut: vi.fn() }))
vi.mock('../../resources/events/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../resources/events/api')>()),
  fetchEventTypes: vi.fn(async () => []),
  fetchChannelStatus: vi.fn(async () => ({ inApp: true, email: true, webhook: true, slack: false, teams: false, mattermost: false })),
}))
vi.mock('../../resources/notification-rules/api', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../resources/notification-rules/api')>()
  const rules = { list: vi.fn(async () => ({ items: [], hasMore: false })), create: vi.fn(), update: vi.fn(), remove: vi.fn() }
  return { ...actual, rulesFor: () => rules }
})
vi.mock('../../app/setup/api', () => ({ fetchSetupStatus: vi.fn() }))
vi.mock('../../resources/signature/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../resources/signature/api')>()),
  fetchSignatureImage: vi.fn(async () => null),
}))

const change = vi.mocked(changePassword)

async function mountPage(who: Me = signedInAdmin, passwordMinLength = 12): Promise<VueWrapper> {
  const pinia = createPinia()
  setActivePinia(pinia)
  usePreferencesStore().setLocale('en')
  useSetupStore().status = { setupComplete: true, setupUrl: '/setup', passwordMinLength, uploadMaxFileSize: 50 << 20, starterStandardsBuiltIn: true }
  useSessionStore().me = who
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/', name: 'dashboard', component: { template: '<p/>' } },
      { path: '/profile', name: 'profile', component: ProfilePage },
    ],
  })
  await router.push('/profile')
  const wrapper = mount(ProfilePage, { attachTo: document.body, global: { plugins: [pinia, router, createAppI18n('en')] } })
  await flushPromises()
  return wrapper
}

async function fill(wrapper: VueWrapper, values: Record<string, string>): Promise<void> {
  for (const [name, value] of Object.entries(values)) {
    await wrapper.get(`input[name="${name}"]`).setValue(value)
  }
}

// Element Plus validates asynchronously; let its promises and timers settle.
async function submit(wrapper: VueWrapper): Promise<void> {
  await wrapper.get('form').trigger('submit')
  for (let i = 0; i < 5; i++) {
    await flushPromises()
    await new Promise((resolve) => setTimeout(resolve, 0))
  }
}

// fieldError returns the error Element Plus shows under the field with that input name.
function fieldError(wrapper: VueWrapper, name: string): string {
  const item = wrapper.get(`input[name="${name}"]`).element.closest('.el-form-item')
  return item?.querySelector('.el-form-item__error')?.textContent?.trim() ?? ''
}

const valid = {
  currentPassword: 'correct horse battery',
  newPassword: 'a brand new passphrase',
  confirmation: 'a brand new passphrase',
}

beforeEach(() => {
  localStorage.clear()
  change.mockReset()
  vi.mocked(listApiKeys).mockResolvedValue({ items: [], hasMore: false })
})

describe('the account', () => {
  it('shows username, e-mail address, display name, roles and last sign-in', async () => {
    const wrapper = await mountPage()
    expect(wrapper.get('h1').text()).toBe('Profile')
    const details = wrapper.get('.account-card__details').text()
    expect(details).toContain('Username')
    expect(details).toContain('admin')
    expect(details).toContain('admin@example.com')
    expect(details).toContain('Ada Admin')
    expect(details).toContain('Administrator')
    const expected = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(
      new Date('2025-03-12T14:05:00Z'),
    )
    expect(details).toContain(expected)
    wrapper.unmount()
  })

  it('shows custom roles by name and a user who never signed in before', async () => {
    const wrapper = await mountPage(signedInAssessee)
    const details = wrapper.get('.account-card__details').text()
    expect(details).toContain('Assessee')
    expect(details).toContain('auditors')
    expect(details).toContain('Never')
    wrapper.unmount()
  })

  it('shows the signing keys and the signature image only to holders of signatures.manage', async () => {
    const without = await mountPage(signedInAssessee)
    expect(without.find('[data-test="signing-keys"]').exists()).toBe(false)
    expect(without.find('[data-test="signature-image"]').exists()).toBe(false)
    without.unmount()
    const holder = await mountPage({ ...signedInAssessee, permissions: ['signatures.manage'] })
    expect(holder.get('[data-test="signing-keys"]').text()).toContain('Signing keys')
    expect(listSigningKeys).toHaveBeenCalled()
    expect(holder.get('[data-test="signature-image"]').text()).toContain('Signature image')
    expect(fetchSignatureImage).toHaveBeenCalled()
    holder.unmount()
  })

  it('offers the language and theme preferences', async () => {
    const wrapper = await mountPage()
    expect(wrapper.find('.preferences-card input[aria-label="Language"]').exists()).toBe(true)
    expect(wrapper.find('.preferences-card button[aria-label="Switch to dark theme"]').exists()).toBe(true)
    wrapper.unmount()
  })
})

describe('changing the password', () => {
  it('names the server minimum and checks it before sending', async () => {
    const wrapper = await mountPage(signedInAdmin, 16)
    expect(wrapper.text()).toContain('At least 16 characters.')
    await fill(wrapper, { ...valid, newPassword: 'fifteen chars!!', confirmation: 'fifteen chars!!' })
    await submit(wrapper)
    await vi.waitFor(() => expect(fieldError(wrapper, 'newPassword')).toBe('The new password must be at least 16 characters long.'))
    expect(change).not.toHaveBeenCalled()
    wrapper.unmount()
  })

  it('explains every missing field of an empty form', async () => {
    const wrapper = await mountPage()
    await submit(wrapper)
    await vi.waitFor(() => {
      expect(fieldError(wrapper, 'currentPassword')).toBe('Enter your current password.')
      expect(fieldError(wrapper, 'newPassword')).toBe('Enter a new password.')
      expect(fieldError(wrapper, 'confirmation')).toBe('Enter the new password again.')
    })
    expect(change).not.toHaveBeenCalled()
    wrapper.unmount()
  })

  it('refuses a mismatched confirmation and an unchanged password', async () => {
    const wrapper = await mountPage()
    await fill(wrapper, { currentPassword: valid.currentPassword, newPassword: valid.currentPassword, confirmation: 'other' })
    await submit(wrapper)
    await vi.waitFor(() => {
      expect(fieldError(wrapper, 'newPassword')).toBe('The new password must differ from the current one.')
      expect(fieldError(wrapper, 'confirmation')).toBe('The passwords do not match.')
    })
    expect(change).not.toHaveBeenCalled()
    wrapper.unmount()
  })

  it('sends the change, confirms it and empties the form', async () => {
    change.mockResolvedValue()
    const wrapper = await mountPage()
    await fill(wrapper, valid)
    await submit(wrapper)
    expect(change).toHaveBeenCalledWith({ currentPassword: valid.currentPassword, newPassword: valid.newPassword })
    expect(wrapper.text()).toContain('Your password has been changed.')
    expect(wrapper.text()).toContain('Your other sessions have been signed out.')
    for (const name of Object.keys(valid)) {
      expect((wrapper.get(`input[name="${name}"]`).element as HTMLInputElement).value).toBe('')
    }
    await new Promise((resolve) => setTimeout(resolve, 150))
    expect(wrapper.findAll('.el-form-item__error')).toHaveLength(0)
    wrapper.unmount()
  })

  it("shows the server's verdict on the field it concerns", async () => {
    const incorrect = 'The current password is incorrect.'
    change.mockRejectedValue(
      new ApiError(400, 'validation_failed', incorrect, 'r1', [
        { field: 'currentPassword', code: 'incorrect', message: incorrect },
      ]),
    )
    const wrapper = await mountPage()
    await fill(wrapper, valid)
    await submit(wrapper)
    await vi.waitFor(() => expect(fieldError(wrapper, 'currentPassword')).toBe(incorrect))
    expect(wrapper.find('.el-alert').exists()).toBe(false)

    // Trying again with the same mistake shows it again; editing the field withdraws it.
    await submit(wrapper)
    await vi.waitFor(() => expect(fieldError(wrapper, 'currentPassword')).toBe(incorrect))
    expect(change).toHaveBeenCalledTimes(2)
    await fill(wrapper, { currentPassword: 'another try here' })
    await vi.waitFor(() => expect(fieldError(wrapper, 'currentPassword')).toBe(''))
    wrapper.unmount()
  })

  it("puts the server's verdict on the new password there", async () => {
    const tooLong = 'The password must be at most 128 characters long.'
    change.mockRejectedValue(
      new ApiError(400, 'validation_failed', 'The new password is not acceptable.', 'r2', [
        { field: 'password', code: 'too_long', message: tooLong },
      ]),
    )
    const wrapper = await mountPage()
    await fill(wrapper, valid)
    await submit(wrapper)
    await vi.waitFor(() => expect(fieldError(wrapper, 'newPassword')).toBe(tooLong))
    wrapper.unmount()
  })

  it('shows a failure no field explains in an alert', async () => {
    change.mockRejectedValue(new ApiError(429, 'rate_limited', 'Too many requests; try again in a minute.', 'req-9'))
    const wrapper = await mountPage()
    await fill(wrapper, valid)
    await submit(wrapper)
    const alert = wrapper.get('.el-alert')
    expect(alert.text()).toContain('The password could not be changed')
    expect(alert.text()).toContain('Too many requests; try again in a minute.')
    expect(alert.text()).toContain('Request ID: req-9')
    wrapper.unmount()
  })
})

describe('editing the profile', () => {
  // The dialog is teleported to <body>; find its parts there.
  function dialogInput(name: string): HTMLInputElement {
    const input = document.body.querySelector<HTMLInputElement>(`.el-dialog input[name="${name}"]`)
    if (!input) throw new Error(`no input ${name}`)
    return input
  }

  async function settle(): Promise<void> {
    for (let i = 0; i < 5; i++) {
      await flushPromises()
      await new Promise((resolve) => setTimeout(resolve, 0))
    }
  }

  async function openAndSave(wrapper: VueWrapper, displayName: string): Promise<void> {
    await wrapper.get('[data-test="edit-profile"]').trigger('click')
    await settle()
    const input = dialogInput('displayName')
    input.value = displayName
    input.dispatchEvent(new Event('input'))
    await settle()
    const save = [...document.body.querySelectorAll<HTMLButtonElement>('.el-dialog__footer button')].find(
      (button) => button.textContent?.trim() === 'Save',
    )
    save?.click()
    await settle()
  }

  it('sends only the changed field with the version and takes the answer into the session', async () => {
    const update = vi.mocked(updateProfile)
    update.mockReset()
    const renamed = { ...signedInAssessee, user: { ...signedInAssessee.user, displayName: 'Grace B. Hopper', version: 4 } }
    update.mockResolvedValue(renamed)
    const wrapper = await mountPage(signedInAssessee)
    await openAndSave(wrapper, 'Grace B. Hopper')
    await vi.waitFor(() => expect(update).toHaveBeenCalledWith({ version: 3, displayName: 'Grace B. Hopper' }))
    await vi.waitFor(() => expect(useSessionStore().user?.version).toBe(4))
    expect(wrapper.get('.account-card__name').text()).toBe('Grace B. Hopper')
    wrapper.unmount()
  })

  it('offers to reload after a version conflict', async () => {
    const update = vi.mocked(updateProfile)
    update.mockReset()
    update.mockRejectedValue(new ApiError(409, 'version_conflict', 'stale', 'req-1'))
    const wrapper = await mountPage(signedInAssessee)
    await openAndSave(wrapper, 'Grace B. Hopper')
    await vi.waitFor(() =>
      expect(document.body.textContent).toContain('Your account has been changed elsewhere meanwhile'),
    )
    wrapper.unmount()
  })
})
