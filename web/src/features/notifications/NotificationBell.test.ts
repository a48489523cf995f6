import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter, type Router } from 'vue-router'
import { createAppI18n } from '../../app/i18n'
import { usePreferencesStore } from '../../app/preferences'
import { fetchMe } from '../../app/session/api'
import { notification } from '../../resources/events/fixtures'
import { fetchUnreadCount, listNotifications, markAllNotificationsRead, markNotificationRead } from './api'
import NotificationBell from './NotificationBell.vue'
import { UNREAD_POLL_INTERVAL_MS } from './polling'

vi.mock('./api', () => ({
  fetchUnreadCount: vi.fn(),
  listNotifications: vi.fn(),
  markNotificationRead: vi.fn(),
  markAllNotificationsRead: vi.fn(),
}))

vi.mock('../../app/session/api', () => ({ fetchMe: vi.fn(async () => null), signOut: vi.fn() }))

const count = vi.mocked(fetchUnreadCount)
const list = vi.mocked(listNotifications)
const markRead = vi.mocked(markNotificationRead)
const markAll = vi.mocked(markAllNotificationsRead)
const page = { template: '<p>page</p>' }
let router: Router
let mounted: VueWrapper | null = null

async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await flushPromises()
    await new Promise((resolve) => setTimeout(resolve, 0))
  }
}

async function mountBell(): Promise<VueWrapper> {
  const pinia = createPinia()
  setActivePinia(pinia)
  usePreferencesStore().setLocale('en')
  router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/', name: 'dashboard', component: page },
      { path: '/notifications', name: 'notifications', component: page },
      { path: '/admin/users', name: 'admin-users', component: page },
    ],
  })
  await router.push('/')
  const wrapper = mount(NotificationBell, { attachTo: document.body, global: { plugins: [pinia, router, createAppI18n('en')] } })
  await settle()
  mounted = wrapper
  return wrapper
}

// panel returns the popover's content, which Element Plus teleports to <body>.
function panel(): HTMLElement {
  const panels = document.body.querySelectorAll<HTMLElement>('[data-test="notification-panel"]')
  const last = panels[panels.length - 1]
  if (!last) throw new Error('no notification panel')
  return last
}

async function open(wrapper: VueWrapper): Promise<void> {
  await wrapper.get('[data-test="notification-bell"]').trigger('click')
  await settle()
}

beforeEach(() => {
  localStorage.clear()
  count.mockReset().mockResolvedValue(0)
  list.mockReset().mockResolvedValue({ items: [], hasMore: false })
  markRead.mockReset()
  markAll.mockReset()
})

afterEach(() => {
  mounted?.unmount()
  mounted = null
  vi.useRealTimers()
  document.body.innerHTML = ''
})

describe('the notification bell', () => {
  it('shows the unread count, capped at 99+, in its badge and its label', async () => {
    count.mockResolvedValue(150)
    const wrapper = await mountBell()
    const bell = wrapper.get('[data-test="notification-bell"]')
    expect(bell.attributes('aria-label')).toBe('Notifications, 99+ unread')
    expect(bell.get('.el-badge__content').text()).toBe('99+')
  })

  it('hides the badge when everything is read', async () => {
    const wrapper = await mountBell()
    const bell = wrapper.get('[data-test="notification-bell"]')
    expect(bell.attributes('aria-label')).toBe('Notifications')
    expect(bell.find('.el-badge__content').exists()).toBe(false)
  })

  it('asks again every ten seconds and when the window regains focus', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    const wrapper = await mountBell()
    expect(count).toHaveBeenCalledTimes(1)
    count.mockResolvedValue(3)
    vi.advanceTimersByTime(UNREAD_POLL_INTERVAL_MS)
    await settle()
    expect(count).toHaveBeenCalledTimes(2)
    expect(wrapper.get('.el-badge__content').text()).toBe('3')
    window.dispatchEvent(new Event('focus'))
    await settle()
    expect(count).toHaveBeenCalledTimes(3)
    wrapper.unmount()
    mounted = null
    vi.advanceTimersByTime(UNREAD_POLL_INTERVAL_MS * 3)
    expect(count).toHaveBeenCalledTimes(3)
  })

  it('reads the session again when a new notification arrives (it may be about one’s own account)', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    await mountBell()
    const before = vi.mocked(fetchMe).mock.calls.length
    count.mockResolvedValue(1)
    vi.advanceTimersByTime(UNREAD_POLL_INTERVAL_MS)
    await settle()
    expect(vi.mocked(fetchMe).mock.calls.length).toBe(before + 1)
    vi.advanceTimersByTime(UNREAD_POLL_INTERVAL_MS) // unchanged count: no further reads
    await settle()
    expect(vi.mocked(fetchMe).mock.calls.length).toBe(before + 1)
  })

  it('explains which events notify when there are none', async () => {
    const wrapper = await mountBell()
    await open(wrapper)
    expect(panel().textContent).toContain('No notifications yet.')
    expect(panel().querySelector('a')?.textContent?.trim()).toBe('See all notifications')
  })

  it('lists the latest in the viewer’s language; opening one marks it read and follows its link', async () => {
    count.mockResolvedValue(1)
    list.mockResolvedValue({ items: [notification({ createdAt: new Date(Date.now() - 5 * 60_000).toISOString() })], hasMore: false })
    markRead.mockResolvedValue(notification({ read: true }))
    const wrapper = await mountBell()
    await open(wrapper)
    expect(list).toHaveBeenCalledWith({ limit: 8 })
    const item = panel().querySelector<HTMLButtonElement>('[data-test="notification-nt_1"]')
    expect(item?.textContent).toContain('User updated')
    expect(item?.textContent).toContain('Ada Admin changed the account grace.')
    expect(item?.textContent).toContain('5 minutes ago')
    count.mockResolvedValue(0)
    item?.click()
    await settle()
    expect(markRead).toHaveBeenCalledWith('nt_1')
    expect(router.currentRoute.value.fullPath).toBe('/admin/users?id=u_2')
    expect(wrapper.get('[data-test="notification-bell"]').attributes('aria-label')).toBe('Notifications')
  })

  it('never follows a link to another site', async () => {
    list.mockResolvedValue({ items: [notification({ read: true, link: '//evil.example/x' })], hasMore: false })
    const wrapper = await mountBell()
    await open(wrapper)
    panel().querySelector<HTMLButtonElement>('[data-test="notification-nt_1"]')?.click()
    await settle()
    expect(markRead).not.toHaveBeenCalled()
    expect(router.currentRoute.value.fullPath).toBe('/')
  })

  it('marks everything read', async () => {
    count.mockResolvedValue(2)
    list.mockResolvedValue({ items: [notification(), notification({ id: 'nt_2' })], hasMore: false })
    markAll.mockResolvedValue(2)
    const wrapper = await mountBell()
    await open(wrapper)
    count.mockResolvedValue(0)
    const button = [...panel().querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Mark all read')
    button?.click()
    await settle()
    expect(markAll).toHaveBeenCalledTimes(1)
    expect(panel().querySelectorAll('.notification-item--unread')).toHaveLength(0)
    expect(wrapper.get('[data-test="notification-bell"]').attributes('aria-label')).toBe('Notifications')
  })
})
