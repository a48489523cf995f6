import type { AuditRecord } from './api'

/**
 * NameText is a name to show: either an i18n key with its parameters (for actors
 * the UI names itself, in the viewer's language) or a name as the server gave it.
 */
export type NameText = { key: string; params?: Record<string, string> } | { text: string }

/**
 * actorName names who acted. The service itself, the command line and anonymous
 * callers get translated labels; a user gets the server's actorName (display name
 * or username), falling back to the recorded id.
 */
export function actorName(record: Pick<AuditRecord, 'actor' | 'actorName'>): NameText {
  const { actor } = record
  if (actor === 'system') return { key: 'audit.actors.system' }
  if (actor.startsWith('cli:')) return { key: 'audit.actors.cli', params: { user: actor.slice('cli:'.length) } }
  if (actor === '' || actor === 'anonymous') return { key: 'audit.actors.anonymous' }
  return { text: record.actorName || actor }
}

/** TARGET_TYPES are the target types with a translated label (audit.targetTypes.*); others show as recorded. */
export const TARGET_TYPES = [
  'user', 'role', 'invite', 'api_key', 'session', 'config',
  'assessment', 'assessment_requirement', 'evidence', 'evidence_attachment', 'claim', 'work_note', 'attestation',
  'project', 'entity', 'standard', 'requirement', 'level', 'tag', 'webhook', 'chat', 'notification_rule', 'assessor',
] as const

/**
 * targetName is what the target column shows after the type: the server's name of the
 * target (the name recorded with the row, or its current one), or else the recorded id.
 * Empty when the record has no target id.
 */
export function targetName(record: Pick<AuditRecord, 'targetId' | 'targetName'>): string {
  return record.targetName || record.targetId || ''
}
