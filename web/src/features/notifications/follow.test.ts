import { describe, expect, it } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { notificationTarget } from './follow'

const page = { template: '<p/>' }
const router = createRouter({
  history: createMemoryHistory(),
  routes: [
    { path: '/', component: page },
    { path: '/profile', component: page },
    { path: '/admin/users', component: page, meta: { permission: 'admin.users' } },
    { path: '/admin/webhooks', component: page, meta: { permission: 'admin.webhooks' } },
  ],
})
const holds = (...permissions: string[]) => (permission: string) => permissions.includes(permission)

describe('notificationTarget', () => {
  it('follows the link when the reader may open its page', () => {
    expect(notificationTarget(router, { type: 'user.updated', link: '/admin/users?id=u_2' }, holds('admin.users'))).toBe(
      '/admin/users?id=u_2',
    )
    expect(notificationTarget(router, { type: 'apikey.created', link: '/profile' }, holds())).toBe('/profile')
  })

  it('leads account events whose page is closed to the reader to their profile', () => {
    expect(notificationTarget(router, { type: 'user.updated', link: '/admin/users?id=u_2' }, holds())).toBe('/profile')
    expect(notificationTarget(router, { type: 'channel.webhook.disabled', link: '/admin/webhooks?id=wh_1' }, holds())).toBeNull()
  })

  it('goes nowhere without a link or with one to another site', () => {
    expect(notificationTarget(router, { type: 'user.updated' }, holds())).toBeNull()
    expect(notificationTarget(router, { type: 'user.updated', link: 'https://evil.example/' }, holds())).toBeNull()
    expect(notificationTarget(router, { type: 'user.updated', link: '//evil.example/' }, holds())).toBeNull()
  })
})
