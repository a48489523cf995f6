import { describe, expect, it } from 'vitest'
import { AUTHOR, evidence, REVIEWER } from '../../resources/evidence/fixtures'
import { evidenceActions, type Viewer } from './evidenceRules'

const ALL = ['evidence.view', 'evidence.create', 'evidence.edit', 'evidence.submit', 'evidence.review', 'evidence.delete']

function viewer(id: string, permissions: string[] = ALL): Viewer {
  return { id, can: (key) => permissions.includes(key) }
}

function shown(actions: ReturnType<typeof evidenceActions>): string[] {
  return Object.entries(actions)
    .filter(([, on]) => on)
    .map(([name]) => name)
    .sort()
}

describe('evidenceActions', () => {
  it('in progress: the author edits, submits, uploads, deletes, notes and unlinks; nobody reviews', () => {
    expect(shown(evidenceActions(evidence(), viewer(AUTHOR.id)))).toEqual(
      ['addNote', 'delete', 'deleteAttachment', 'edit', 'submit', 'unlink', 'upload'].sort(),
    )
  })

  it('follows the permissions: a viewer without rights gets nothing', () => {
    expect(shown(evidenceActions(evidence(), viewer('u_other', ['evidence.view'])))).toEqual([])
    expect(shown(evidenceActions(evidence(), viewer('u_other', ['evidence.view', 'evidence.submit'])))).toEqual(['submit'])
  })

  it('in review: only the assigned reviewer (holding evidence.review, not the author) approves or rejects', () => {
    const inReview = evidence({ state: 'in_review', reviewer: REVIEWER })
    expect(shown(evidenceActions(inReview, viewer(REVIEWER.id)))).toEqual(['addNote', 'approve', 'delete', 'reject', 'unlink'])
    const author = evidenceActions(inReview, viewer(AUTHOR.id))
    expect(author.approve || author.reject || author.edit || author.submit || author.upload).toBe(false)
    expect(author.reviewPending).toBe(true)
    expect(evidenceActions(inReview, viewer(REVIEWER.id, ['evidence.view'])).approve).toBe(false)
    expect(evidenceActions(inReview, viewer('u_admin')).approve).toBe(false)
    const selfReview = evidence({ state: 'in_review', reviewer: AUTHOR })
    expect(evidenceActions(selfReview, viewer(AUTHOR.id)).approve).toBe(false)
  })

  it('locked evidence refuses every change, whoever looks', () => {
    for (const locked of ['claimed', 'linked_to_claim', 'assessment_terminal'] as const) {
      const state = locked === 'claimed' ? 'claimed' : 'in_progress'
      const actions = evidenceActions(evidence({ state, locked, reviewer: REVIEWER }), viewer(AUTHOR.id))
      expect(shown(actions)).toEqual([])
    }
  })

  it('expired evidence can be renewed, edited and given files, not submitted', () => {
    const actions = evidenceActions(evidence({ state: 'expired', validUntil: '2020-01-01' }), viewer(AUTHOR.id))
    expect(actions.renew).toBe(true)
    expect(actions.edit).toBe(true)
    expect(actions.upload).toBe(true)
    expect(actions.submit).toBe(false)
    expect(evidenceActions(evidence({ state: 'expired' }), viewer(AUTHOR.id, ['evidence.view'])).renew).toBe(false)
  })
})
