import { api, unwrap } from '../../api/client'
import type { components } from '../../api/schema'

/** NotificationRule routes events to channels: a global rule, or a personal rule of its owner. */
export type NotificationRule = components['schemas']['NotificationRule']

/** NotificationRulePage is one page of rules. */
export type NotificationRulePage = components['schemas']['PageNotificationRule']

/** NewNotificationRule is what the rule dialog submits to create a rule. */
export type NewNotificationRule = components['schemas']['NewNotificationRule']

/** NotificationRuleUpdate is a change to a rule; `version` is the one last read. */
export type NotificationRuleUpdate = components['schemas']['NotificationRuleUpdate']

/** RuleScope is 'global' (administration) or 'personal' (the signed-in user's own). */
export type RuleScope = NotificationRule['scope']

/** RULE_PAGE_SIZE is how many rules one page lists. */
export const RULE_PAGE_SIZE = 50

/** RulesApi manages the rules of one scope. */
export interface RulesApi {
  list(cursor?: string): Promise<NotificationRulePage>
  create(rule: NewNotificationRule): Promise<NotificationRule>
  update(id: string, update: NotificationRuleUpdate): Promise<NotificationRule>
  remove(id: string): Promise<void>
}

/** globalRules are the installation's rules (/api/v1/admin/notification-rules, admin.notification_rules). */
export const globalRules: RulesApi = {
  list: (cursor) =>
    unwrap(api.GET('/api/v1/admin/notification-rules', { params: { query: { cursor, limit: RULE_PAGE_SIZE } } })),
  create: (rule) => unwrap(api.POST('/api/v1/admin/notification-rules', { body: rule })),
  update: (id, update) =>
    unwrap(api.PATCH('/api/v1/admin/notification-rules/{id}', { params: { path: { id } }, body: update })),
  remove: async (id) => {
    await unwrap(api.DELETE('/api/v1/admin/notification-rules/{id}', { params: { path: { id } } }))
  },
}

/** personalRules are the signed-in user's own rules (/api/v1/notification-rules). */
export const personalRules: RulesApi = {
  list: (cursor) => unwrap(api.GET('/api/v1/notification-rules', { params: { query: { cursor, limit: RULE_PAGE_SIZE } } })),
  create: (rule) => unwrap(api.POST('/api/v1/notification-rules', { body: rule })),
  update: (id, update) => unwrap(api.PATCH('/api/v1/notification-rules/{id}', { params: { path: { id } }, body: update })),
  remove: async (id) => {
    await unwrap(api.DELETE('/api/v1/notification-rules/{id}', { params: { path: { id } } }))
  },
}

/** rulesFor picks the rules of a scope. */
export function rulesFor(scope: RuleScope): RulesApi {
  return scope === 'global' ? globalRules : personalRules
}
