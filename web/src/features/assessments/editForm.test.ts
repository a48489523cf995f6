import { describe, expect, it } from 'vitest'
import { assessmentUpdate, editDraft, standardsEditable } from './editForm'
import { anAssessment } from './fixtures'

describe('assessmentUpdate', () => {
  it('sends nothing when nothing changed', () => {
    const assessment = anAssessment()
    expect(assessmentUpdate(assessment, editDraft(assessment))).toBeNull()
  })

  it('sends the changed fields with the version read; an emptied project or due date as ""', () => {
    const assessment = anAssessment({ tags: [{ id: 'tg_1', name: 'web', color: '#123456' }] })
    const draft = { ...editDraft(assessment), title: ' New title ', projectId: '', dueDate: '', tagIds: ['tg_2'] }
    expect(assessmentUpdate(assessment, draft)).toEqual({ version: 4, title: 'New title', projectId: '', dueDate: '', tagIds: ['tg_2'] })
  })

  it('sends a changed evidence rule, also after the start', () => {
    const assessment = anAssessment()
    expect(assessmentUpdate(assessment, { ...editDraft(assessment), completionEvidence: 'at_least_one' })).toEqual({ version: 4, completionEvidence: 'at_least_one' })
  })

  it('sends the standards with their levels only before the start', () => {
    const pending = anAssessment({ state: 'pending', startedAt: undefined })
    const draft = {
      ...editDraft(pending),
      standards: [{ standardId: 'st_asvs', levelId: 'lv_2' }, { standardId: 'st_iso', levelId: '' }, { standardId: '', levelId: '' }],
    }
    expect(assessmentUpdate(pending, draft)).toEqual({
      version: 4,
      standards: [{ standardId: 'st_asvs', levelId: 'lv_2' }, { standardId: 'st_iso' }],
    })
    expect(assessmentUpdate(anAssessment(), { ...draft, standards: draft.standards })).toBeNull()
  })

  it('knows when the standards may change', () => {
    expect(['new', 'pending', 'in_progress', 'on_hold'].map((state) => standardsEditable(state as 'new'))).toEqual([true, true, false, false])
  })
})
