import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { createAppI18n } from '../../app/i18n'
import { usePreferencesStore } from '../../app/preferences'
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

async function mountAt(path: string) {
  const pinia = createPinia()
  setActivePinia(pinia)
  usePreferencesStore().setLocale('en')
  const router = createRouter({ history: createMemoryHistory(), routes: [{ path: '/admin/users', component: UsersPage }] })
  await router.push(path)
  const wrapper = mount(UsersPage, { attachTo: document.body, global: { plugins: [pinia, router, createAppI18n('en')] } })
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

  it('shows just the list when the linked user cannot be read', async () => {
    vi.mocked(fetchUser).mockRejectedValue(new Error('not found'))
    const wrapper = await mountAt('/admin/users?id=u_gone')
    expect(listUsers).toHaveBeenCalled()
    expect(document.body.textContent).not.toContain('Bob Builder')
    wrapper.unmount()
  })
})
