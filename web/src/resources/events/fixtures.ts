import type { EventType, Notification } from './api'

// Test data shaped as GET /api/v1/events/types and GET /api/v1/notifications answer.

function type(name: string, title: string, permission: string): EventType {
  const category = name.slice(0, name.indexOf('.'))
  return { type: name, category, title, description: `${title}.`, permission, notifyHolders: true, notifySubject: false, emailDefault: false }
}

/** catalogue is a part of the event catalogue: three categories in the server's order. */
export const catalogue: EventType[] = [
  type('user.created', 'User created', 'admin.users'),
  type('user.updated', 'User updated', 'admin.users'),
  type('apikey.created', 'API key created', 'admin.settings'),
  type('apikey.revoked', 'API key revoked', 'admin.settings'),
  type('channel.webhook.created', 'Webhook created', 'admin.webhooks'),
  type('channel.test', 'Test message', 'admin.webhooks'),
]

/** notification builds a notification about user.updated, unread unless said otherwise. */
export function notification(overrides: Partial<Notification> = {}): Notification {
  return {
    id: 'nt_1',
    eventId: 'evt_1',
    type: 'user.updated',
    title: 'User updated',
    message: 'Ada Admin changed the account grace.',
    link: '/admin/users?id=u_2',
    params: { actor: 'Ada Admin', summary: 'grace' },
    read: false,
    createdAt: '2025-03-12T14:00:00Z',
    ...overrides,
  }
}
