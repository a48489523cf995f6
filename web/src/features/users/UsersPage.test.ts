import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { createAppI18n } from '../../app/i18n'
import { usePreferencesStore } from '../../app/preferences'
import { nameStartsWithLabel } from '../../app/testing'
import { fetchUser, listUsers, type User } from './api'
import UsersPage from './UsersPage.vue'

vi.mock('./api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./api')>()),
  listUsers: vi.fn(async () => ({ items: [], hasMore: false })),
  fetchUser: vi.fn(),
}))
vi.mock('../../resources/roles/api', () => ({ fetchRoles: vi.fn(async () => []) }))

const bob: User = {
  id: 'u_01hx8n6q7k3m2v9c4t5r6s7p8b', username: 'bob', email: 'bob@example.com', displayName: 'Bob Builder',
  active: true, roles: ['assessor'], version: 3, createdAt: '2026-11-01T10:00:00Z',
}

async function mountAt(path: string, locale: 'en' | 'de' = 'en') {
  const pinia = createPinia()
  setActivePinia(pinia)
  usePreferencesStore().setLocale(locale)
  const router = createRouter({ history: createMemoryHistory(), routes: [{ path: '/admin/users', component: UsersPage }] })
  await router.push(path)
  const wrapper = mount(UsersPage, { attachTo: document.body, global: { plugins: [pinia, router, createAppI18n(locale)] } })
  await flushPromises()
  return wrapper
}

describe('UsersPage', () => {
  beforeEach(() => {
    vi.mocked(fetchUser).mockReset()
    vi.mocked(listUsers).mockClear()
    document.body.innerHTML = ''
  })

  it('opens the user a link names with ?id=', async () => {
    vi.mocked(fetchUser).mockResolvedValue(bob)
    const wrapper = await mountAt('/admin/users?id=' + bob.id)
    expect(fetchUser).toHaveBeenCalledWith(bob.id)
    expect(document.body.textContent).toContain('Bob Builder')
    expect(listUsers).toHaveBeenCalled()
    wrapper.unmount()
  })

  it.each([
    ['en', [['Edit', 'Edit user bob'], ['Set password', 'Set password for bob']]],
    ['de', [['Bearbeiten', 'Bearbeiten: Benutzer bob'], ['Passwort setzen', 'Passwort setzen für bob']]],
  ] as const)('names each row action beginning with the words it shows, then whose it is (%s)', async (locale, actions) => {
    vi.mocked(listUsers).mockResolvedValueOnce({ items: [bob], hasMore: false })
    const wrapper = await mountAt('/admin/users', locale)
    // "Set the password of bob" did not contain "Set password" as it is shown (WCAG 2.5.3,
    // Label in Name), nor did "Benutzer bob bearbeiten" begin with "Bearbeiten".
    const buttons = wrapper.findAll('.el-table__body-wrapper .el-table__row button')
    expect(buttons.map((b) => [b.text(), b.attributes('aria-label')])).toEqual(actions)
    for (const button of buttons) expect(nameStartsWithLabel(button.element.textContent ?? '', button.attributes('aria-label'))).toBe(true)
    wrapper.unmount()
  })

  it('shows each user as a card on a phone, with e-mail, roles, status and actions in view', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query.includes('max-width'), media: query, addEventListener() {}, removeEventListener() {} }))
    try {
      vi.mocked(listUsers).mockResolvedValueOnce({ items: [bob], hasMore: false })
      const wrapper = await mountAt('/admin/users')
      expect(wrapper.find('.el-table').exists()).toBe(false)
      const card = wrapper.get('[data-test="user-card"]')
      expect(card.text()).toContain('Bob Builder')
      expect(card.text()).toContain('bob@example.com')
      expect(card.text()).toContain('Assessor')
      expect(card.text()).toContain('Active')
      expect(card.findAll('button').map((b) => b.attributes('aria-label'))).toEqual(['Edit user bob', 'Set password for bob'])
      await card.findAll('button')[0]!.trigger('click')
      await flushPromises()
      expect(document.body.querySelector('.el-drawer')).not.toBeNull()
      wrapper.unmount()
    } finally {
      vi.unstubAllGlobals()
    }
  })

  it('shows just the list when the linked user cannot be read', async () => {
    vi.mocked(fetchUser).mockRejectedValue(new Error('not found'))
    const wrapper = await mountAt('/admin/users?id=u_gone')
    expect(listUsers).toHaveBeenCalled()
    expect(document.body.textContent).not.toContain('Bob Builder')
    wrapper.unmount()
  })
})
