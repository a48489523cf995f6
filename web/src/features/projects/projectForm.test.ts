import { describe, expect, it } from 'vitest'
import { ApiError } from '../../api/errors'
import { allowedStatesOf, dueBeforeStart, formatDay, newProject, PROJECT_TRANSITIONS, projectDraft, projectUpdate } from './projectForm'
import { PROJECT_STATES, type Project } from './types'

const project: Project = {
  id: 'pr_1',
  name: 'Shop assessment',
  description: '',
  state: 'new',
  startDate: '2026-01-10',
  dueDate: '2026-03-01',
  standards: [{ id: 'st_1', name: 'ASVS', standardVersion: '5.0.0', state: 'published' }],
  entities: [{ id: 'en_1', name: 'Web shop', type: 'product' }],
  tags: [],
  overdue: false,
  version: 2,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
}

describe('the project form', () => {
  it('creates with what was filled in; new is the server default state', () => {
    const draft = { ...projectDraft(), name: ' Audit ', standardIds: ['st_1'], dueDate: '2026-05-01' }
    expect(newProject(draft, false)).toEqual({ name: 'Audit', standardIds: ['st_1'], dueDate: '2026-05-01' })
    expect(newProject({ ...draft, state: 'on_hold' }, false).state).toBe('on_hold')
  })

  it('sends only what changed; clearing a date sends an empty string', () => {
    expect(projectUpdate(project, projectDraft(project), true)).toBeNull()
    const draft = { ...projectDraft(project), dueDate: '', entityIds: [] }
    expect(projectUpdate(project, draft, true)).toEqual({ version: 2, dueDate: '', entityIds: [] })
  })

  it('flags a due date before the start date', () => {
    expect(dueBeforeStart({ startDate: '2026-02-01', dueDate: '2026-01-31' })).toBe(true)
    expect(dueBeforeStart({ startDate: '2026-02-01', dueDate: '2026-02-01' })).toBe(false)
    expect(dueBeforeStart({ startDate: '', dueDate: '2026-01-01' })).toBe(false)
  })

  it('shows a calendar day without shifting it through a time zone', () => {
    expect(formatDay('2026-03-01', 'en-GB')).toBe('1 Mar 2026')
    expect(formatDay('', 'en')).toBeNull()
  })
})

describe('project states', () => {
  it('have a transition list for every state, retired being final', () => {
    expect(Object.keys(PROJECT_TRANSITIONS).sort()).toEqual([...PROJECT_STATES].sort())
    expect(PROJECT_TRANSITIONS.retired).toEqual([])
  })

  it('read the allowed states from a 409 invalid_state_transition', () => {
    const error = new ApiError(409, 'invalid_state_transition', 'no', 'r1', [
      { field: 'state', code: 'allowed', message: 'in_progress' },
      { field: 'state', code: 'allowed', message: 'retired' },
      { field: 'state', code: 'other', message: 'x' },
    ])
    expect(allowedStatesOf(error)).toEqual(['in_progress', 'retired'])
  })
})
