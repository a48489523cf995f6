import type { RouteRecordRaw } from 'vue-router'

/** chatRoutes holds the chat integrations page (Slack, Microsoft Teams, Mattermost). */
export const chatRoutes: RouteRecordRaw[] = [
  {
    path: '/admin/chat',
    name: 'admin-chat',
    component: () => import('./ChatPage.vue'),
    meta: { layout: 'app', titleKey: 'chat.title', permission: 'admin.integrations' },
  },
]
