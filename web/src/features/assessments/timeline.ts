import type { TimelineEntry } from './types'

// Timeline entries in words: the audit action picks a sentence (assessments.timeline.actions.*),
// the entry's details fill it in. Unknown actions show as recorded, so a newer server
// never makes the timeline fail.

/** TIMELINE_ACTIONS are the audit actions with a sentence of their own. */
export const TIMELINE_ACTIONS = [
  'assessment.created',
  'assessment.updated',
  'assessment.team_changed',
  'assessment.state_changed',
  'assessment.result_recorded',
  'assessment.note_added',
  'assessment.note_updated',
  'assessment.note_deleted',
  'evidence.created',
  'evidence.updated',
  'evidence.submitted',
  'evidence.approved',
  'evidence.rejected',
  'evidence.renewed',
  'evidence.linked',
  'evidence.unlinked',
  'evidence.note_added',
  'evidence.attachment_added',
  'evidence.attachment_removed',
  'evidence.expired',
  'evidence.deleted',
  'claim.created',
  'claim.updated',
  'claim.deleted',
] as const

/** TimelineText is an entry in words: the key of its sentence and the sentence's parameters. */
export interface TimelineText {
  /** key is an i18n key, or null for an action without a sentence (show `action`). */
  key: string | null
  action: string
  params: Record<string, string>
}

function text(details: Record<string, unknown>, ...keys: string[]): string {
  for (const key of keys) {
    const value = details[key]
    if (typeof value === 'string' && value !== '') return value
    if (typeof value === 'number') return String(value)
  }
  return ''
}

/**
 * describeEntry picks an entry's sentence and its parameters: the name of what changed
 * (title, name, identifier, filename) and, where recorded, the state or result it changed
 * to and from.
 */
export function describeEntry(entry: TimelineEntry): TimelineText {
  const details = entry.details ?? {}
  const known = (TIMELINE_ACTIONS as readonly string[]).includes(entry.action)
  return {
    key: known ? `assessments.timeline.actions.${entry.action.replace('.', '_')}` : null,
    action: entry.action,
    params: {
      name: text(details, 'name', 'title', 'identifier', 'filename', 'evidenceName') || entry.targetId,
      from: text(details, 'from', 'previousState'),
      to: text(details, 'to', 'state', 'result'),
    },
  }
}

/** actorLabel names who acted: the service for 'system', else the display name or username. */
export function actorLabel(entry: TimelineEntry): string | null {
  if (entry.actor.id === 'system' || entry.actor.id === '') return null
  return entry.actor.displayName || entry.actor.username || entry.actor.id
}
