import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter, type Router } from 'vue-router'
import { ApiError } from '../../api/errors'
import { createAppI18n } from '../../app/i18n'
import { fetchMe } from '../../app/session/api'
import { signedInAdmin } from '../../app/session/fixtures'
import { useSessionStore } from '../../app/session/store'
import { useSetupStore } from '../../app/setup/store'
import { createFirstAdministrator, importStarterStandards, loadDemoData } from './api'
import SetupPage from './SetupPage.vue'

vi.mock('./api', () => ({ createFirstAdministrator: vi.fn(), importStarterStandards: vi.fn(), loadDemoData: vi.fn() }))
vi.mock('../../app/setup/api', () => ({ fetchSetupStatus: vi.fn() }))
vi.mock('../../app/session/api', () => ({ fetchMe: vi.fn(), signOut: vi.fn() }))

const createAccount = vi.mocked(createFirstAdministrator)

let router: Router

async function mountPage(passwordMinLength = 12, at = '/setup', setupComplete = false): Promise<VueWrapper> {
  const pinia = createPinia()
  setActivePinia(pinia)
  useSetupStore().status = { setupComplete, setupUrl: '/setup', passwordMinLength, uploadMaxFileSize: 50 << 20, starterStandardsBuiltIn: true }
  router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/', name: 'dashboard', component: { template: '<p>dashboard</p>' } },
      { path: '/setup', name: 'setup', component: SetupPage },
    ],
  })
  await router.push(at)
  const wrapper = mount(SetupPage, { global: { plugins: [pinia, router, createAppI18n('en')] } })
  await flushPromises()
  return wrapper
}

async function fill(wrapper: VueWrapper, values: Record<string, string>): Promise<void> {
  for (const [name, value] of Object.entries(values)) {
    await wrapper.get(`input[name="${name}"]`).setValue(value)
  }
}

// Element Plus validates asynchronously; let its promises and timers settle.
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await flushPromises()
    await new Promise((resolve) => setTimeout(resolve, 0))
  }
}

async function submit(wrapper: VueWrapper): Promise<void> {
  await wrapper.get('form').trigger('submit')
  await settle()
}

// Element Plus shows a field's error 100 ms after validation (debounced).
async function expectMessages(wrapper: VueWrapper, messages: string[]): Promise<void> {
  await vi.waitFor(() => {
    for (const message of messages) expect(wrapper.text()).toContain(message)
  })
}

const valid = {
  username: 'admin',
  email: 'admin@example.com',
  displayName: 'Ada Admin',
  password: 'correct horse battery',
  confirmation: 'correct horse battery',
}

beforeEach(() => {
  createAccount.mockReset()
  vi.mocked(fetchMe).mockReset().mockResolvedValue(signedInAdmin)
})

describe('the administrator form', () => {
  it('names the server minimum next to the password field', async () => {
    const wrapper = await mountPage(16)
    expect(wrapper.text()).toContain('At least 16 characters.')
  })

  it('refuses a password shorter than the server minimum', async () => {
    const wrapper = await mountPage(12)
    await fill(wrapper, { ...valid, password: 'short', confirmation: 'short' })
    await submit(wrapper)
    await expectMessages(wrapper, ['The password must be at least 12 characters long.'])
    expect(createAccount).not.toHaveBeenCalled()
  })

  it('refuses a confirmation that does not match', async () => {
    const wrapper = await mountPage()
    await fill(wrapper, { ...valid, confirmation: 'correct horse battery!' })
    await submit(wrapper)
    await expectMessages(wrapper, ['The passwords do not match.'])
    expect(createAccount).not.toHaveBeenCalled()
  })

  it('explains every missing field of an empty form', async () => {
    const wrapper = await mountPage()
    await submit(wrapper)
    await expectMessages(wrapper, [
      'Enter a username.',
      'Enter an e-mail address.',
      'Enter a display name.',
      'Enter a password.',
      'Enter the password again.',
    ])
    expect(createAccount).not.toHaveBeenCalled()
  })

  it('refuses a username that is too short and an e-mail address without @', async () => {
    const wrapper = await mountPage()
    await fill(wrapper, { ...valid, username: 'ab', email: 'admin.example.com' })
    await submit(wrapper)
    await expectMessages(wrapper, [
      'The username must be between 3 and 64 characters long.',
      'Enter a valid e-mail address.',
    ])
    expect(createAccount).not.toHaveBeenCalled()
  })
})

describe('creating the account', () => {
  it('sends the account, signed in offers the optional steps, and skipping both opens the dashboard', async () => {
    createAccount.mockResolvedValue(signedInAdmin)
    const wrapper = await mountPage()
    await fill(wrapper, { ...valid, username: '  admin  ' })
    await submit(wrapper)
    expect(createAccount).toHaveBeenCalledWith({
      username: 'admin',
      email: 'admin@example.com',
      displayName: 'Ada Admin',
      password: 'correct horse battery',
    })
    expect(wrapper.find('[data-test="starter-step"]').exists()).toBe(true)
    expect(router.currentRoute.value.fullPath).toBe('/setup?step=starter')
    await wrapper.get('[data-test="starter-next"]').trigger('click')
    await settle()
    expect(wrapper.find('[data-test="demo-step"]').exists()).toBe(true)
    expect(router.currentRoute.value.fullPath).toBe('/setup?step=demo&skipped=starter')
    await wrapper.get('[data-test="demo-next"]').trigger('click')
    await settle()
    // Skipped steps are not marked as done: no check, and the word "Skipped".
    expect(router.currentRoute.value.query).toEqual({ step: 'done', skipped: 'starter,demo' })
    for (const name of ['starter', 'demo']) {
      const item = wrapper.get(`[data-test="setup-step-${name}"]`)
      expect(item.find('.el-step__head').classes()).toContain('is-wait')
      expect(item.text()).toContain('Skipped')
    }
    expect(wrapper.get('[data-test="setup-step-account"] .el-step__head').classes()).toContain('is-success')
    await wrapper.get('[data-test="setup-finish"]').trigger('click')
    await settle()
    expect(router.currentRoute.value.name).toBe('dashboard')
    expect(importStarterStandards).not.toHaveBeenCalled()
    expect(loadDemoData).not.toHaveBeenCalled()
    expect(useSetupStore().status?.setupComplete).toBe(true)
    // The server set the session cookie; the session is read back from it.
    expect(fetchMe).toHaveBeenCalledTimes(1)
    expect(useSessionStore().user?.displayName).toBe('Ada Admin')
  })

  it('keeps its later step in the address, so a reload continues there', async () => {
    const wrapper = await mountPage(12, '/setup?step=demo', true)
    expect(wrapper.find('[data-test="demo-step"]').exists()).toBe(true)
    expect(wrapper.find('input[name="username"]').exists()).toBe(false)
    wrapper.unmount()
    // Before setup is complete a step in the address cannot skip the account.
    const fresh = await mountPage(12, '/setup?step=demo', false)
    expect(fresh.find('input[name="username"]').exists()).toBe(true)
  })

  it('marks a step taken as done and one skipped as skipped, also after a reload', async () => {
    const wrapper = await mountPage(12, '/setup?step=done&skipped=demo', true)
    expect(wrapper.get('[data-test="setup-step-starter"] .el-step__head').classes()).toContain('is-success')
    expect(wrapper.get('[data-test="setup-step-starter"]').text()).not.toContain('Skipped')
    expect(wrapper.get('[data-test="setup-step-demo"] .el-step__head').classes()).toContain('is-wait')
    expect(wrapper.get('[data-test="setup-step-demo"]').text()).toContain('Skipped')
  })

  it('names the current step in a caption, which phones show instead of the colliding titles', async () => {
    const wrapper = await mountPage(12, '/setup?step=demo', true)
    expect(wrapper.get('[data-test="setup-step-caption"]').text()).toBe('Step 3 of 4: Demo data')
  })

  it("shows the server's refusal of a field at the field, in the form's words, not in a banner", async () => {
    createAccount.mockRejectedValue(
      new ApiError(400, 'validation_failed', 'The request is invalid; the details name each problem.', 'req-7', [
        { field: 'displayName', code: 'invalid', message: 'expected length <= 128' },
        { field: 'username', code: 'invalid', message: '3–64 characters: letters, digits, dot, dash and underscore, starting with a letter or digit.' },
      ]),
    )
    const wrapper = await mountPage()
    await fill(wrapper, valid)
    await submit(wrapper)
    await expectMessages(wrapper, [
      'The display name must be at most 128 characters long.',
      'Use only letters, digits, dots, dashes and underscores, starting with a letter or digit.',
    ])
    expect(wrapper.text()).not.toContain('expected length')
    expect(wrapper.find('.api-error-alert').exists()).toBe(false)
  })

  it("holds no more than the server's limits and says so", async () => {
    const wrapper = await mountPage()
    expect(wrapper.get('input[name="displayName"]').attributes('maxlength')).toBe('128')
    expect(wrapper.get('input[name="email"]').attributes('maxlength')).toBe('254')
    expect(wrapper.get('input[name="password"]').attributes('maxlength')).toBe('128')
    await fill(wrapper, { ...valid, displayName: 'x'.repeat(5000) })
    await submit(wrapper)
    await expectMessages(wrapper, ['The display name must be at most 128 characters long.'])
    expect(createAccount).not.toHaveBeenCalled()
  })

  it("shows the server's error message and request id when it fails", async () => {
    createAccount.mockRejectedValue(
      new ApiError(404, 'not_found', 'No route for POST /api/v1/setup.', 'req-42'),
    )
    const wrapper = await mountPage()
    await fill(wrapper, valid)
    await submit(wrapper)
    const alert = wrapper.get('[role="alert"]')
    expect(alert.text()).toContain('The administrator account could not be created')
    expect(alert.text()).toContain('No route for POST /api/v1/setup.')
    expect(alert.text()).toContain('Request ID: req-42')
    expect(router.currentRoute.value.name).toBe('setup')
  })
})
