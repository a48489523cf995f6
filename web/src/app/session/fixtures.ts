import { createPinia, setActivePinia, type Pinia } from 'pinia'
import { usePreferencesStore } from '../preferences'
import type { Me } from './api'
import { useSessionStore } from './store'

// Sessions as GET /api/v1/auth/me describes them, for tests.

/** signedInAdmin is the first administrator, holding every permission of the fixture. */
export const signedInAdmin: Me = {
  user: {
    id: 'u_01hx8n6q7k3m2v9c4t5r6s7p8a',
    username: 'admin',
    email: 'admin@example.com',
    displayName: 'Ada Admin',
    active: true,
    roles: ['admin'],
    version: 1,
    createdAt: '2025-03-01T09:00:00Z',
    lastLoginAt: '2025-03-12T14:05:00Z',
  },
  permissions: ['admin.users', 'projects.view'],
}

/** signedInAssessee is a user with few permissions and no administration rights. */
export const signedInAssessee: Me = {
  user: {
    id: 'u_01hx8n6q7k3m2v9c4t5r6s7p8b',
    username: 'grace',
    email: 'grace@example.com',
    displayName: 'Grace Hopper',
    active: true,
    roles: ['assessee', 'auditors'],
    version: 3,
    createdAt: '2025-03-02T09:00:00Z',
  },
  permissions: ['projects.view'],
}

/**
 * signedInPinia makes the active Pinia of a test: the preferences in English and `me`
 * signed in, holding `permissions` (those of `me` when not given).
 */
export function signedInPinia(me: Me, permissions: string[] = me.permissions ?? []): Pinia {
  const pinia = createPinia()
  setActivePinia(pinia)
  usePreferencesStore().setLocale('en')
  useSessionStore().me = { ...me, permissions }
  return pinia
}
