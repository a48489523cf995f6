import { describe, expect, it } from 'vitest'
import { standard } from './fixtures'
import { standardActions } from './lifecycle'

const holds = (...keys: string[]) => (key: string) => keys.includes(key)
const everything = holds('standards.edit', 'standards.submit', 'standards.approve', 'standards.duplicate')

describe('standardActions', () => {
  it('lets an author edit and submit a draft, not review it', () => {
    const actions = standardActions(standard(), holds('standards.edit', 'standards.submit', 'standards.duplicate'), 'u_author')
    expect(actions).toMatchObject({ editContent: true, editTags: true, submit: true, review: false, retire: false, delete: false, duplicate: true })
  })

  it('offers review of a standard in review to an approver who did not submit it', () => {
    const actions = standardActions(standard({ state: 'in_review', submittedBy: 'u_author' }), everything, 'u_other')
    expect(actions).toMatchObject({ review: true, ownSubmission: false, editContent: false, submit: false, editTags: true })
  })

  it('withholds review from the submitter (four eyes) and says why', () => {
    const actions = standardActions(standard({ state: 'in_review', submittedBy: 'u_me' }), everything, 'u_me')
    expect(actions).toMatchObject({ review: false, ownSubmission: true })
  })

  it('offers retiring a published standard and deleting drafts and retired ones to approvers', () => {
    expect(standardActions(standard({ state: 'published' }), everything, 'u_x')).toMatchObject({ retire: true, delete: false, editContent: false })
    expect(standardActions(standard({ state: 'retired' }), everything, 'u_x')).toMatchObject({ retire: false, delete: true })
    expect(standardActions(standard({ state: 'draft' }), everything, 'u_x')).toMatchObject({ delete: true })
  })

  it('offers nothing but reading to a viewer', () => {
    const actions = standardActions(standard({ state: 'published' }), holds('standards.view'), 'u_x')
    expect(Object.values(actions).every((allowed) => allowed === false)).toBe(true)
  })
})
