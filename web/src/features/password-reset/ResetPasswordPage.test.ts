import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { ApiError } from '../../api/errors'
import { createAppI18n } from '../../app/i18n'
import { useSetupStore } from '../../app/setup/store'
import { confirmPasswordReset } from './api'
import ResetPasswordPage from './ResetPasswordPage.vue'

vi.mock('./api', () => ({ confirmPasswordReset: vi.fn(), requestPasswordReset: vi.fn() }))
vi.mock('../../app/setup/api', () => ({ fetchSetupStatus: vi.fn() }))

const confirm = vi.mocked(confirmPasswordReset)
const page = { template: '<p>page</p>' }

async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await flushPromises()
    await new Promise((resolve) => setTimeout(resolve, 0))
  }
}

let mounted: VueWrapper | null = null

async function mountPage(path: string): Promise<VueWrapper> {
  const pinia = createPinia()
  setActivePinia(pinia)
  useSetupStore().status = { setupComplete: true, setupUrl: '/setup', passwordMinLength: 14, uploadMaxFileSize: 50 << 20, starterStandardsBuiltIn: true }
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/login', name: 'login', component: page },
      { path: '/forgot-password', name: 'forgot-password', component: page },
      { path: '/reset-password', name: 'reset-password', component: ResetPasswordPage },
    ],
  })
  await router.push(path)
  const wrapper = mount(ResetPasswordPage, { global: { plugins: [pinia, router, createAppI18n('en')] } })
  await settle()
  mounted = wrapper
  return wrapper
}

async function choose(wrapper: VueWrapper, password: string, confirmation = password): Promise<void> {
  await wrapper.get('input[name="password"]').setValue(password)
  await wrapper.get('input[name="confirmation"]').setValue(confirmation)
  await wrapper.get('form').trigger('submit')
  await settle()
}

beforeEach(() => {
  confirm.mockReset()
})
afterEach(() => {
  mounted?.unmount()
  mounted = null
})

describe('the reset-password page', () => {
  it('explains a link without a token and offers a new one', async () => {
    const wrapper = await mountPage('/reset-password')
    expect(wrapper.find('form').exists()).toBe(false)
    expect(wrapper.text()).toContain('This link is incomplete')
    expect(wrapper.get('a').attributes('href')).toBe('/forgot-password')
  })

  it('checks the policy’s minimum length and the confirmation before sending', async () => {
    const wrapper = await mountPage('/reset-password?token=tok_123')
    expect(wrapper.text()).toContain('At least 14 characters.')
    await choose(wrapper, 'thirteen char', 'something else')
    await vi.waitFor(() => {
      expect(wrapper.text()).toContain('The password must be at least 14 characters long.')
      expect(wrapper.text()).toContain('The passwords do not match.')
    })
    expect(confirm).not.toHaveBeenCalled()
  })

  it('sends the token with the new password and then leads to sign-in', async () => {
    confirm.mockResolvedValue()
    const wrapper = await mountPage('/reset-password?token=%20tok_123%20')
    await choose(wrapper, 'a long new passphrase')
    expect(confirm).toHaveBeenCalledWith('tok_123', 'a long new passphrase')
    expect(wrapper.text()).toContain('Your password has been changed')
    expect(wrapper.get('a').attributes('href')).toBe('/login')
  })

  it('says when the link no longer works', async () => {
    const expired = new ApiError(422, 'business_rule_violation', 'The link is no longer valid.', 'r1', [
      { code: 'invalid_token', message: 'The link is no longer valid.' },
    ])
    confirm.mockImplementation(async () => {
      throw expired
    })
    const wrapper = await mountPage('/reset-password?token=tok_used')
    await choose(wrapper, 'a long new passphrase')
    expect(wrapper.text()).toContain('This link no longer works')
    expect(wrapper.get('a').attributes('href')).toBe('/forgot-password')
  })

  it('puts the server’s verdict on the password there', async () => {
    const weak = 'This password appears in known data breaches.'
    const refused = new ApiError(400, 'validation_failed', weak, 'r2', [{ field: 'password', code: 'breached', message: weak }])
    confirm.mockImplementation(async () => {
      throw refused
    })
    const wrapper = await mountPage('/reset-password?token=tok_123')
    await choose(wrapper, 'a long new passphrase')
    const item = wrapper.get('input[name="password"]').element.closest('.el-form-item')
    await vi.waitFor(() => expect(item?.querySelector('.el-form-item__error')?.textContent?.trim()).toBe(weak))
    expect(wrapper.find('.el-alert').exists()).toBe(false)
  })
})
