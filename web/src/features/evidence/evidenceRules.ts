import type { Evidence } from './types'

// What the evidence detail page offers, decided from the evidence's state, its lock and
// the viewer's permissions (the server decides again; this keeps buttons honest).

/** Viewer is who looks at the evidence: their id and a permission check. */
export interface Viewer {
  id: string
  can(key: string): boolean
}

/** EvidenceActions are the actions the detail page shows. */
export interface EvidenceActions {
  edit: boolean
  submit: boolean
  approve: boolean
  reject: boolean
  renew: boolean
  delete: boolean
  addNote: boolean
  upload: boolean
  deleteAttachment: boolean
  unlink: boolean
  /** reviewPending is true for the author waiting on another reviewer (to explain the wait). */
  reviewPending: boolean
}

/**
 * evidenceActions decides the actions. Locked evidence (claimed, cited by a claim, or
 * under a finished assessment) refuses every change, administrators' too; evidence in
 * review only takes the reviewer's verdict; expired evidence can be renewed (a new
 * valid-until date) by those who may edit it.
 */
export function evidenceActions(evidence: Evidence, viewer: Viewer): EvidenceActions {
  const locked = Boolean(evidence.locked)
  const open = !locked && evidence.state === 'in_progress'
  const inReview = !locked && evidence.state === 'in_review'
  const isAuthor = evidence.author.id === viewer.id
  const isReviewer = evidence.reviewer?.id === viewer.id
  const mayReview = inReview && viewer.can('evidence.review') && isReviewer && !isAuthor
  return {
    edit: (open || (!locked && evidence.state === 'expired')) && viewer.can('evidence.edit'),
    submit: open && viewer.can('evidence.submit'),
    approve: mayReview,
    reject: mayReview,
    renew: !locked && evidence.state === 'expired' && viewer.can('evidence.edit'),
    delete: !locked && viewer.can('evidence.delete'),
    addNote: !locked && viewer.can('evidence.edit'),
    upload: (open || (!locked && evidence.state === 'expired')) && viewer.can('evidence.create'),
    deleteAttachment: !locked && evidence.state !== 'in_review' && viewer.can('evidence.delete'),
    unlink: !locked && viewer.can('evidence.edit'),
    reviewPending: inReview && !isReviewer,
  }
}

/** MS_PER_DAY is one day in milliseconds. */
const MS_PER_DAY = 86_400_000

function dayNumber(day: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
  if (!match) return null
  return Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / MS_PER_DAY
}

/** localToday is today's date in the viewer's time zone as YYYY-MM-DD. */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`
}

/** Validity is how a valid-until date stands: days left (0 = last day today), or expired. */
export type Validity = { kind: 'none' } | { kind: 'valid'; days: number } | { kind: 'expired'; days: number }

/** EXPIRY_WARNING_DAYS is how close an end of validity turns the marker into a warning. */
export const EXPIRY_WARNING_DAYS = 14

/**
 * validity tells how many days are left until `validUntil` (the last valid day), or how
 * many days ago it ended. Evidence in state expired counts as expired whatever the date.
 */
export function validity(validUntil: string | undefined, state: Evidence['state'], today = localToday()): Validity {
  const end = validUntil ? dayNumber(validUntil) : null
  const now = dayNumber(today)
  if (end === null || now === null) return state === 'expired' ? { kind: 'expired', days: 0 } : { kind: 'none' }
  const days = end - now
  if (days < 0 || state === 'expired') return { kind: 'expired', days: Math.max(0, -days) }
  return { kind: 'valid', days }
}
