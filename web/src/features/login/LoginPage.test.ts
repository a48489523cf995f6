import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter, type Router } from 'vue-router'
import { ApiError } from '../../api/errors'
import { createAppI18n } from '../../app/i18n'
import { fetchMe } from '../../app/session/api'
import { signedInAdmin } from '../../app/session/fixtures'
import { useSessionStore } from '../../app/session/store'
import { fetchAuthOptions, type AuthOptions } from '../../resources/auth-options/api'
import { signIn } from './api'
import LoginPage from './LoginPage.vue'

vi.mock('./api', () => ({ signIn: vi.fn() }))
vi.mock('../../resources/auth-options/api', () => ({ fetchAuthOptions: vi.fn() }))
vi.mock('../../app/session/api', () => ({ fetchMe: vi.fn(), signOut: vi.fn() }))

const login = vi.mocked(signIn)
const authOptions = vi.mocked(fetchAuthOptions)

function options(overrides: Partial<AuthOptions> = {}): AuthOptions {
  return { passwordReset: false, registrationMode: 'disabled', ...overrides }
}
const me = vi.mocked(fetchMe)
const page = { template: '<p>page</p>' }

let router: Router

async function mountPage(path = '/login'): Promise<VueWrapper> {
  const pinia = createPinia()
  setActivePinia(pinia)
  router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/', name: 'dashboard', component: page },
      { path: '/profile', name: 'profile', component: page },
      { path: '/login', name: 'login', component: LoginPage },
      { path: '/register', name: 'register', component: page },
      { path: '/forgot-password', name: 'forgot-password', component: page },
    ],
  })
  await router.push(path)
  const wrapper = mount(LoginPage, { global: { plugins: [pinia, router, createAppI18n('en')] } })
  await flushPromises()
  return wrapper
}

async function signInWith(wrapper: VueWrapper, username: string, password: string): Promise<void> {
  await wrapper.get('input[name="username"]').setValue(username)
  await wrapper.get('input[name="password"]').setValue(password)
  await wrapper.get('form').trigger('submit')
  for (let i = 0; i < 5; i++) {
    await flushPromises()
    await new Promise((resolve) => setTimeout(resolve, 0))
  }
}

beforeEach(() => {
  login.mockReset()
  me.mockReset()
  authOptions.mockReset().mockResolvedValue(options())
})

describe('signing in', () => {
  it('sends the credentials, reads the session back and returns to the requested page', async () => {
    login.mockResolvedValue(signedInAdmin)
    me.mockResolvedValue(signedInAdmin)
    const wrapper = await mountPage('/login?redirect=%2Fprofile')
    await signInWith(wrapper, '  admin  ', 'correct horse battery')
    expect(login).toHaveBeenCalledWith({ username: 'admin', password: 'correct horse battery' })
    expect(me).toHaveBeenCalledTimes(1)
    expect(router.currentRoute.value.fullPath).toBe('/profile')
    expect(useSessionStore().user?.username).toBe('admin')
  })

  it('goes to the dashboard instead of another site', async () => {
    login.mockResolvedValue(signedInAdmin)
    me.mockResolvedValue(signedInAdmin)
    const wrapper = await mountPage('/login?redirect=%2F%2Fevil.example')
    await signInWith(wrapper, 'admin', 'correct horse battery')
    expect(router.currentRoute.value.fullPath).toBe('/')
  })

  it("shows the server's message on a 401 and stays", async () => {
    login.mockRejectedValue(
      new ApiError(401, 'unauthenticated', 'The username or password is incorrect, or the account cannot sign in.', 'req-7'),
    )
    const wrapper = await mountPage('/login?redirect=%2Fprofile')
    await signInWith(wrapper, 'admin', 'wrong password')
    const alert = wrapper.get('[role="alert"]')
    expect(alert.text()).toContain('Signing in failed')
    expect(alert.text()).toContain('The username or password is incorrect, or the account cannot sign in.')
    expect(router.currentRoute.value.name).toBe('login')
    expect(router.currentRoute.value.query.redirect).toBe('/profile')
    expect(me).not.toHaveBeenCalled()
  })

  it('explains a session cookie the browser did not keep', async () => {
    login.mockResolvedValue(signedInAdmin)
    me.mockRejectedValue(new ApiError(401, 'unauthenticated', 'Authentication is required.', 'r1'))
    const wrapper = await mountPage()
    await signInWith(wrapper, 'admin', 'correct horse battery')
    expect(wrapper.get('[role="alert"]').text()).toContain('the browser did not keep the session cookie')
    expect(router.currentRoute.value.name).toBe('login')
  })

  it('asks for both fields before sending anything', async () => {
    const wrapper = await mountPage()
    await signInWith(wrapper, '', '')
    await vi.waitFor(() => {
      expect(wrapper.text()).toContain('Enter your username or e-mail address.')
      expect(wrapper.text()).toContain('Enter your password.')
    })
    expect(login).not.toHaveBeenCalled()
  })
})

describe('why the viewer is here', () => {
  it('says that the session has ended', async () => {
    const wrapper = await mountPage('/login?redirect=%2Fprofile')
    useSessionStore().notice = 'expired'
    await flushPromises()
    expect(wrapper.text()).toContain('Your session has ended; sign in again.')
  })

  it('confirms signing out', async () => {
    const wrapper = await mountPage()
    useSessionStore().notice = 'signedOut'
    await flushPromises()
    expect(wrapper.text()).toContain('You have signed out.')
  })
})

describe('a forgotten password', () => {
  it('is offered only while e-mail can carry a reset link', async () => {
    const without = await mountPage()
    expect(without.find('[data-test="forgot-password"]').exists()).toBe(false)
    without.unmount()

    authOptions.mockResolvedValue(options({ passwordReset: true }))
    const wrapper = await mountPage()
    const link = wrapper.get('[data-test="forgot-password"]')
    expect(link.text()).toBe('Forgot password?')
    expect(link.attributes('href')).toBe('/forgot-password')
  })

  it('is not offered when the server cannot say', async () => {
    authOptions.mockRejectedValue(new ApiError(0, 'network_error', '', ''))
    const wrapper = await mountPage()
    expect(wrapper.find('[data-test="forgot-password"]').exists()).toBe(false)
  })
})

describe('the way to register', () => {
  it('is not offered while registration is disabled, where it could not work', async () => {
    const wrapper = await mountPage()
    expect(wrapper.find('[data-test="register-prompt"]').exists()).toBe(false)
    expect(wrapper.text()).not.toContain('Register')
  })

  it('asks for an invitation when only the invited may register', async () => {
    authOptions.mockResolvedValue(options({ registrationMode: 'invite_only' }))
    const wrapper = await mountPage()
    const prompt = wrapper.get('[data-test="register-prompt"]')
    expect(prompt.text()).toBe('Have an invitation? Register')
    expect(prompt.get('a').attributes('href')).toBe('/register')
  })

  it('invites anyone when registration is open', async () => {
    authOptions.mockResolvedValue(options({ registrationMode: 'open' }))
    const wrapper = await mountPage()
    const prompt = wrapper.get('[data-test="register-prompt"]')
    expect(prompt.text()).toBe('No account yet? Register')
    expect(prompt.get('a').attributes('href')).toBe('/register')
  })

  it('is not offered when the server cannot say', async () => {
    authOptions.mockRejectedValue(new ApiError(0, 'network_error', '', ''))
    const wrapper = await mountPage()
    expect(wrapper.find('[data-test="register-prompt"]').exists()).toBe(false)
  })
})
