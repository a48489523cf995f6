import { emailProblem } from '../../app/validation'
import type { ChatDestination, Webhook } from '../destinations/api'
import { sameEntries } from '../destinations/destinationForm'
import type { EventType } from '../events/api'
import type { Role } from '../roles/api'
import type { NewNotificationRule, NotificationRule, NotificationRuleUpdate, RuleScope } from './api'

/** RuleForm holds the rule dialog's values; `emails` is the text of the addresses field. */
export interface RuleForm {
  name: string
  eventTypes: string[]
  inApp: boolean
  email: boolean
  webhookIds: string[]
  chatIds: string[]
  roles: string[]
  emails: string
  enabled: boolean
}

/** formOf fills the dialog: a new rule sends in-app and is enabled, else the rule's values. */
export function formOf(rule?: NotificationRule | null): RuleForm {
  if (!rule) {
    return { name: '', eventTypes: [], inApp: true, email: false, webhookIds: [], chatIds: [], roles: [], emails: '', enabled: true }
  }
  return {
    name: rule.name,
    eventTypes: [...(rule.eventTypes ?? [])],
    inApp: rule.channels.inApp,
    email: rule.channels.email,
    webhookIds: [...(rule.channels.webhookIds ?? [])],
    chatIds: [...(rule.channels.chatIds ?? [])],
    roles: [...(rule.roles ?? [])],
    emails: (rule.emails ?? []).join('\n'),
    enabled: rule.enabled,
  }
}

/** parseEmails reads the addresses field: one or more per line, separated by commas, semicolons or spaces. */
export function parseEmails(text: string): string[] {
  const seen = new Set<string>()
  for (const part of text.split(/[\s,;]+/)) {
    const address = part.trim()
    if (address !== '') seen.add(address)
  }
  return [...seen]
}

/** RuleProblems names what keeps a rule from being saved, per field. */
export interface RuleProblems {
  name?: 'required'
  eventTypes?: 'required'
  /** channels: nobody would receive anything. */
  channels?: 'required'
  /** emails: the first address that is not one. */
  emails?: { invalid: string }
}

/**
 * ruleProblems checks a rule as the server will: a name, at least one event type,
 * and someone to receive it. A personal rule sends in-app and/or e-mail to its owner;
 * a global one needs roles with in-app or e-mail, addresses, webhooks or chat
 * destinations. Addresses must look like addresses.
 */
export function ruleProblems(form: RuleForm, scope: RuleScope): RuleProblems {
  const problems: RuleProblems = {}
  if (form.name.trim() === '') problems.name = 'required'
  if (form.eventTypes.length === 0) problems.eventTypes = 'required'
  if (scope === 'personal') {
    if (!form.inApp && !form.email) problems.channels = 'required'
    return problems
  }
  const emails = parseEmails(form.emails)
  const toRoles = form.roles.length > 0 && (form.inApp || form.email)
  if (!toRoles && emails.length + form.webhookIds.length + form.chatIds.length === 0) problems.channels = 'required'
  const invalid = emails.find((address) => emailProblem(address) !== null)
  if (invalid !== undefined) problems.emails = { invalid }
  return problems
}

/** RuleValues are a rule's values as the dialog would send them, trimmed and normalised. */
interface RuleValues {
  name: string
  eventTypes: string[]
  inApp: boolean
  email: boolean
  webhookIds: string[]
  chatIds: string[]
  roles: string[]
  emails: string[]
  enabled: boolean
}

// valuesOf normalises the form; a personal rule carries no webhooks, chats, roles or addresses.
function valuesOf(form: RuleForm, scope: RuleScope): RuleValues {
  const global = scope === 'global'
  return {
    name: form.name.trim(),
    eventTypes: [...form.eventTypes],
    inApp: form.inApp,
    email: form.email,
    webhookIds: global ? [...form.webhookIds] : [],
    chatIds: global ? [...form.chatIds] : [],
    roles: global ? [...form.roles] : [],
    emails: global ? parseEmails(form.emails) : [],
    enabled: form.enabled,
  }
}

/** newRule turns the dialog's values into the create request. */
export function newRule(form: RuleForm, scope: RuleScope): NewNotificationRule {
  const values = valuesOf(form, scope)
  return {
    name: values.name,
    eventTypes: values.eventTypes,
    channels: { inApp: values.inApp, email: values.email, webhookIds: values.webhookIds, chatIds: values.chatIds },
    roles: values.roles,
    emails: values.emails,
    enabled: values.enabled,
  }
}

/**
 * ruleUpdate builds the PATCH body: the version read and only what changed (the
 * channels as a whole). Returns null when nothing did.
 */
export function ruleUpdate(rule: NotificationRule, form: RuleForm, scope: RuleScope): NotificationRuleUpdate | null {
  const next = valuesOf(form, scope)
  const update: NotificationRuleUpdate = { version: rule.version }
  if (next.name !== rule.name) update.name = next.name
  if (!sameEntries(next.eventTypes, rule.eventTypes ?? [])) update.eventTypes = next.eventTypes
  const channels = rule.channels
  if (
    next.inApp !== channels.inApp ||
    next.email !== channels.email ||
    !sameEntries(next.webhookIds, channels.webhookIds ?? []) ||
    !sameEntries(next.chatIds, channels.chatIds ?? [])
  ) {
    update.channels = { inApp: next.inApp, email: next.email, webhookIds: next.webhookIds, chatIds: next.chatIds }
  }
  if (scope === 'global') {
    if (!sameEntries(next.roles, rule.roles ?? [])) update.roles = next.roles
    if (!sameEntries(next.emails, rule.emails ?? [])) update.emails = next.emails
  }
  if (next.enabled !== rule.enabled) update.enabled = next.enabled
  return Object.keys(update).length === 1 ? null : update
}

/**
 * receivableTypes are the event types a user may pick for a personal rule: those
 * whose permission they hold. (The server also accepts types that can concern the
 * user as their subject; those reach them by default anyway.)
 */
export function receivableTypes(catalogue: readonly EventType[], can: (permission: string) => boolean): EventType[] {
  return catalogue.filter((type) => !type.permission || can(type.permission))
}


/** RuleTargets are what a global rule can send to; null where the viewer may not list them. */
export interface RuleTargets {
  roles: Role[]
  webhooks: Webhook[] | null
  chats: ChatDestination[] | null
}
