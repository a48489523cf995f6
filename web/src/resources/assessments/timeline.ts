import type { components } from '../../api/schema'

// Timeline entries in words: the audit action picks a sentence (assessments.timeline.actions.*),
// the entry's details fill it in. An action without a sentence (from a newer server) reads
// as a generic change to its area ("Ada made a change (attestation)"), never as the raw
// code, so the timeline neither fails nor shows codes. The assessment's timeline tab and the dashboard's recent
// activity word their entries the same way (TimelineSentence).

/** TimelineEntry is one change under an assessment, from the audit log. */
export type TimelineEntry = components['schemas']['TimelineEntry']

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
  'evidence.expiring',
  'evidence.expired',
  'evidence.deleted',
  'evidence.attachment_integrity_failed',
  'claim.created',
  'claim.updated',
  'claim.deleted',
  'assessment.deleted',
  'attestation.created',
  'attestation.imported',
  'attestation.updated',
  'attestation.deleted',
  'attestation.rescinded',
  'attestation.expiring',
  'attestation.export_invalid',
  'affirmation.signatory_assigned',
  'affirmation.signatory_removed',
  'affirmation.frozen',
  'affirmation.signed',
  'affirmation.seal_ready',
  'affirmation.sealed',
] as const

/** TIMELINE_FALLBACK is the sentence of an action without one of its own, NAMED the one that names its record. */
export const TIMELINE_FALLBACK = 'assessments.timeline.other'
export const TIMELINE_FALLBACK_NAMED = 'assessments.timeline.otherNamed'

/** TimelineText is an entry in words: the key of its sentence and the sentence's parameters. */
export interface TimelineText {
  /** key is the i18n key of the sentence: the action's own, or a fallback for an action without one. */
  key: string
  /** known is false for an action without a sentence of its own. */
  known: boolean
  action: string
  /** area is what an action is about: its code's first part (attestation of attestation.sealed). */
  area: string
  params: Record<string, string>
  /** record is what the entry is about, by name, with its page while it exists and its id (for hover and copy). */
  record: RecordRef
  /** requirement is the requirement a link or unlink named, by identifier; null for other entries. */
  requirement: RecordRef | null
}

/** RecordRef is a record as a sentence names it: its name, the page to open (null: none) and its id. */
export interface RecordRef {
  name: string
  link: string | null
  id: string
}

function text(details: Record<string, unknown>, ...keys: string[]): string {
  for (const key of keys) {
    const value = details[key]
    if (typeof value === 'string' && value !== '') return value
    if (typeof value === 'number') return String(value)
  }
  return ''
}

/** requirementLink is the page of one requirement of an assessment: its workspace's requirements tab, with it selected. */
export function requirementLink(assessmentId: string, requirementId: string): string {
  return `/assessments/${encodeURIComponent(assessmentId)}?tab=requirements&requirement=${encodeURIComponent(requirementId)}`
}

/**
 * describeEntry picks an entry's sentence and its parameters: the record changed by the
 * name the server gives it (the name it had then, or its current one; the recorded
 * details and, last, the id for older servers), linked to its page, the requirement a
 * link names, and, where recorded, the state or result it changed to and from.
 */
export function describeEntry(entry: TimelineEntry, assessmentId = ''): TimelineText {
  const details = entry.details ?? {}
  const known = (TIMELINE_ACTIONS as readonly string[]).includes(entry.action)
  const name = entry.targetName || text(details, 'name', 'title', 'identifier', 'filename', 'evidenceName') || entry.targetId
  const identifier = text(details, 'requirement')
  const requirementId = text(details, 'requirementId')
  const requirement = identifier
    ? { name: identifier, link: assessmentId && requirementId ? requirementLink(assessmentId, requirementId) : null, id: requirementId }
    : null
  const fallback = entry.targetName ? TIMELINE_FALLBACK_NAMED : TIMELINE_FALLBACK
  return {
    key: known ? `assessments.timeline.actions.${entry.action.replace('.', '_')}${requirement ? '' : withoutRequirement(entry.action)}` : fallback,
    known,
    action: entry.action,
    area: entry.action.split('.')[0] ?? '',
    params: {
      name,
      requirement: identifier,
      from: text(details, 'from', 'previousState'),
      to: text(details, 'to', 'state', 'result'),
    },
    record: { name, link: entry.targetLink || null, id: entry.targetId },
    requirement,
  }
}

// withoutRequirement picks the sentence of a link or unlink that recorded no requirement.
function withoutRequirement(action: string): string {
  return action === 'evidence.linked' || action === 'evidence.unlinked' ? '_plain' : ''
}

/** actorLabel names who acted: the service for 'system', else the display name or username. */
export function actorLabel(entry: TimelineEntry): string | null {
  if (entry.actor.id === 'system' || entry.actor.id === '') return null
  return entry.actor.displayName || entry.actor.username || entry.actor.id
}
