import type { Evidence } from '../../resources/evidence/types'

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
