import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { ApiError } from '../../api/errors'
import { createAppI18n } from '../../app/i18n'
import { useSetupStore } from '../../app/setup/store'
import { fetchAuthOptions } from '../../resources/auth-options/api'
import { registerAccount } from './api'
import RegisterPage from './RegisterPage.vue'

vi.mock('./api', () => ({ registerAccount: vi.fn() }))
vi.mock('../../app/setup/api', () => ({ fetchSetupStatus: vi.fn() }))
vi.mock('../../resources/auth-options/api', () => ({ fetchAuthOptions: vi.fn() }))

const send = vi.mocked(registerAccount)
const accepted = 'If this account does not exist yet, it has been created: sign in with the credentials you chose.'

async function mountPage(path: string): Promise<VueWrapper> {
  const pinia = createPinia()
  setActivePinia(pinia)
  useSetupStore().status = { setupComplete: true, setupUrl: '/setup', passwordMinLength: 12, uploadMaxFileSize: 50 << 20, starterStandardsBuiltIn: true }
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/login', name: 'login', component: { template: '<p/>' } },
      { path: '/register', name: 'register', component: RegisterPage },
    ],
  })
  await router.push(path)
  const wrapper = mount(RegisterPage, { global: { plugins: [pinia, router, createAppI18n('en')] } })
  await flushPromises()
  return wrapper
}

async function fillAndSubmit(wrapper: VueWrapper): Promise<void> {
  const values = {
    username: 'ivy',
    email: 'ivy@example.com',
    displayName: 'Ivy Invitee',
    password: 'invited user passphrase',
    confirmation: 'invited user passphrase',
  }
  for (const [name, value] of Object.entries(values)) await wrapper.get(`input[name="${name}"]`).setValue(value)
  await wrapper.get('form').trigger('submit')
  for (let i = 0; i < 5; i++) {
    await flushPromises()
    await new Promise((resolve) => setTimeout(resolve, 0))
  }
}

// A function returned from beforeEach would run as a clean-up, so return nothing.
beforeEach(() => {
  send.mockReset()
  vi.mocked(fetchAuthOptions).mockReset().mockResolvedValue({ passwordReset: false, registrationMode: 'invite_only' })
})

describe('while registration is disabled', () => {
  it('says so and leads to sign-in instead of showing a form the server would refuse', async () => {
    vi.mocked(fetchAuthOptions).mockResolvedValue({ passwordReset: false, registrationMode: 'disabled' })
    const wrapper = await mountPage('/register?invite=tok1')
    const closed = wrapper.get('[data-test="registration-closed"]')
    expect(closed.text()).toContain('Registration is switched off')
    expect(closed.get('a').attributes('href')).toBe('/login')
    expect(wrapper.find('form').exists()).toBe(false)
  })

  it('shows the form when the server cannot say', async () => {
    vi.mocked(fetchAuthOptions).mockRejectedValue(new ApiError(0, 'network_error', '', ''))
    const wrapper = await mountPage('/register')
    expect(wrapper.find('[data-test="registration-closed"]').exists()).toBe(false)
    expect(wrapper.find('form').exists()).toBe(true)
  })
})


describe('registering', () => {
  it('takes the invite from the link and shows the generic answer with the way to sign in', async () => {
    send.mockResolvedValue(accepted)
    const wrapper = await mountPage('/register?invite=tok%2B1')
    expect((wrapper.get('input[name="inviteToken"]').element as HTMLInputElement).value).toBe('tok+1')
    await fillAndSubmit(wrapper)
    expect(send).toHaveBeenCalledWith({
      username: 'ivy',
      email: 'ivy@example.com',
      displayName: 'Ivy Invitee',
      password: 'invited user passphrase',
      inviteToken: 'tok+1',
    })
    expect(wrapper.get('[role="status"]').text()).toContain(accepted)
    expect(wrapper.get('a[href="/login"]').text()).toBe('Go to sign-in')
    wrapper.unmount()
  })

  it('sends no invite token when none was given', async () => {
    send.mockResolvedValue(accepted)
    const wrapper = await mountPage('/register')
    await fillAndSubmit(wrapper)
    expect(send.mock.calls[0]?.[0]).not.toHaveProperty('inviteToken')
    wrapper.unmount()
  })

  it("shows the server's message when registration is closed", async () => {
    const closed = new ApiError(403, 'registration_closed', 'An invitation is required to register.', 'r1', [])
    send.mockRejectedValue(closed)
    const wrapper = await mountPage('/register')
    await fillAndSubmit(wrapper)
    const alert = wrapper.get('[role="alert"]')
    expect(alert.text()).toContain('The account could not be created')
    expect(alert.text()).toContain('An invitation is required to register.')
    wrapper.unmount()
  })

  it("shows the server's refusal of a field at the field, in the form's words, not in a banner", async () => {
    const refused = new ApiError(422, 'validation_failed', 'validation failed', 'r2', [
      { field: 'body.displayName', code: 'invalid', message: 'expected length <= 128' },
    ])
    send.mockRejectedValue(refused)
    const wrapper = await mountPage('/register')
    await fillAndSubmit(wrapper)
    expect(wrapper.find('[role="alert"]').exists()).toBe(false)
    const item = wrapper.get('input[name="displayName"]').element.closest('.el-form-item')
    expect(item?.textContent).toContain('128')
    expect(item?.textContent).not.toContain('expected length')
    wrapper.unmount()
  })
})
