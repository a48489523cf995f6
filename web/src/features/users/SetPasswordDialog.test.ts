import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createAppI18n } from '../../app/i18n'
import type { User } from './api'
import SetPasswordDialog from './SetPasswordDialog.vue'

vi.mock('./api', async (importOriginal) => ({ ...(await importOriginal<typeof import('./api')>()), setUserPassword: vi.fn() }))

const user = (username: string): User => ({
  id: 'u_' + username, username, email: `${username}@example.com`, displayName: username,
  active: true, roles: [], version: 1, createdAt: '2026-11-01T10:00:00Z',
})

// Element Plus shows a field's error state 100 ms after validating (a debounce).
async function settle(): Promise<void> {
  await flushPromises()
  await new Promise((resolve) => setTimeout(resolve, 150))
  await flushPromises()
}

function mountDialog(locale: 'en' | 'de' = 'en') {
  setActivePinia(createPinia())
  return mount(SetPasswordDialog, { attachTo: document.body, props: { user: null }, global: { plugins: [createAppI18n(locale)] } })
}

const passwordInput = () => document.querySelector<HTMLInputElement>('.el-dialog input[name="password"]')!
const errors = () => [...document.querySelectorAll('.el-dialog .el-form-item__error')].map((e) => e.textContent?.trim())

describe('SetPasswordDialog', () => {
  afterEach(() => {
    document.body.innerHTML = ''
  })

  it('opens empty and without errors for the next user after a short password was cancelled', async () => {
    const wrapper = mountDialog()
    await wrapper.setProps({ user: user('alice') })
    await flushPromises()
    passwordInput().value = 'abc'
    passwordInput().dispatchEvent(new Event('input'))
    passwordInput().dispatchEvent(new Event('blur'))
    await settle()
    expect(errors()).toContain('The password must be at least 12 characters long.')
    await wrapper.setProps({ user: null })
    await settle()
    await wrapper.setProps({ user: user('bob') })
    await settle()
    expect(passwordInput().value).toBe('')
    expect(errors()).toEqual([])
    expect(document.querySelector('.el-dialog .is-error')).toBeNull()
    wrapper.unmount()
  })

  it.each([
    ['en', 'New password'],
    ['de', 'Neues Passwort'],
  ] as const)('labels the field as a new password, not an initial one (%s)', async (locale, label) => {
    const wrapper = mountDialog(locale)
    await wrapper.setProps({ user: user('bob') })
    await flushPromises()
    const labels = [...document.querySelectorAll('.el-dialog .el-form-item__label')].map((l) => l.textContent?.trim())
    expect(labels[0]).toBe(label)
    wrapper.unmount()
  })
})
