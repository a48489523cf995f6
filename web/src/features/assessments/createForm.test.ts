import { describe, expect, it } from 'vitest'
import { emptyDraft, newAssessment, overlap, standardOptions } from './createForm'

describe('newAssessment', () => {
  it('posts only what is filled in, levels only where chosen', () => {
    expect(newAssessment({ ...emptyDraft(), title: '  Shop  ', entityId: 'en_1' })).toEqual({
      title: 'Shop', entityId: 'en_1', standards: [], completionEvidence: 'every_positive',
    })
    expect(
      newAssessment({
        title: 'Shop', description: ' d ', entityId: 'en_1', projectId: 'pr_1',
        standards: [{ standardId: 'st_1', levelId: 'lv_1' }, { standardId: 'st_2', levelId: '' }, { standardId: '', levelId: '' }],
        assessorIds: ['us_1'], assesseeIds: ['us_2'], dueDate: '2026-05-01', tagIds: ['tg_1'], completionEvidence: 'none',
      }),
    ).toEqual({
      title: 'Shop', description: 'd', entityId: 'en_1', projectId: 'pr_1',
      standards: [{ standardId: 'st_1', levelId: 'lv_1' }, { standardId: 'st_2' }],
      assessorIds: ['us_1'], assesseeIds: ['us_2'], dueDate: '2026-05-01', tagIds: ['tg_1'], completionEvidence: 'none',
    })
  })

  it('starts with the default evidence rule, and with the entity or project it was opened from', () => {
    expect(emptyDraft().completionEvidence).toBe('every_positive')
    expect(emptyDraft({ entityId: 'en_7' })).toMatchObject({ entityId: 'en_7', projectId: '' })
    expect(emptyDraft({ projectId: 'pr_7' })).toMatchObject({ entityId: '', projectId: 'pr_7' })
  })
})

describe('standardOptions', () => {
  const published = [
    { id: 'st_z', label: 'Zeta 1' },
    { id: 'st_a', label: 'Alpha 2' },
    { id: 'st_m', label: 'Mu 3' },
  ]
  it('offers the project standards first in the project order, then the rest by name', () => {
    expect(standardOptions(published, ['st_m', 'st_gone', 'st_z'])).toEqual([
      { id: 'st_m', label: 'Mu 3', inProject: true },
      { id: 'st_z', label: 'Zeta 1', inProject: true },
      { id: 'st_a', label: 'Alpha 2', inProject: false },
    ])
    expect(standardOptions(published, []).map((o) => o.id)).toEqual(['st_a', 'st_m', 'st_z'])
  })
})

describe('overlap', () => {
  it('finds users in both roles', () => {
    expect(overlap({ assessorIds: ['a', 'b'], assesseeIds: ['b', 'c'] })).toEqual(['b'])
  })
})
