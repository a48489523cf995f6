import type { Standard } from './types'

// Which of a standard's actions the viewer is offered, from its state and their
// permissions (docs/catalogue.md, "Lifecycle and four eyes"). The server decides in the
// end; this only keeps buttons away that could not work.

/** StandardActions says which actions the detail page offers. */
export interface StandardActions {
  /** Metadata, requirements, levels and CSV import: drafts, standards.edit. */
  editContent: boolean
  /** Tags: any state, standards.edit. */
  editTags: boolean
  submit: boolean
  /** Approve and reject: in review, standards.approve, not the submitter. */
  review: boolean
  /** The viewer holds standards.approve but submitted this standard themselves (four eyes). */
  ownSubmission: boolean
  retire: boolean
  duplicate: boolean
  delete: boolean
}

/** standardActions works out the actions for `standard`; `can` tells the viewer's permissions. */
export function standardActions(standard: Standard, can: (key: string) => boolean, userId: string | undefined): StandardActions {
  const state = standard.state
  const approver = can('standards.approve')
  const ownSubmission = state === 'in_review' && approver && userId !== undefined && standard.submittedBy === userId
  return {
    editContent: state === 'draft' && can('standards.edit'),
    editTags: can('standards.edit'),
    submit: state === 'draft' && can('standards.submit'),
    review: state === 'in_review' && approver && !ownSubmission,
    ownSubmission,
    retire: state === 'published' && approver,
    duplicate: can('standards.duplicate'),
    delete: (state === 'draft' || state === 'retired') && approver,
  }
}
