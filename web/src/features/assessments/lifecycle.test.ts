import { describe, expect, it } from 'vitest'
import { ApiError } from '../../api/errors'
import { actionFor, availableMoves, preconditions, steps } from './lifecycle'

describe('availableMoves', () => {
  it('offers exactly the moves the server allows, named, forward first and cancel last', () => {
    expect(availableMoves({ state: 'new', allowedStates: ['pending', 'in_progress', 'cancelled'] })).toEqual([
      { action: 'start', to: 'in_progress', danger: false, primary: true },
      { action: 'plan', to: 'pending', danger: false, primary: false },
      { action: 'cancel', to: 'cancelled', danger: true, primary: false },
    ])
    expect(availableMoves({ state: 'complete', allowedStates: ['in_progress', 'archived'] }).map((m) => m.action)).toEqual(['reopen', 'archive'])
    expect(availableMoves({ state: 'archived', allowedStates: [] })).toEqual([])
    expect(availableMoves({ state: 'archived', allowedStates: null })).toEqual([])
  })

  it('names the way back to work after a hold a resume', () => {
    expect(actionFor('on_hold', 'in_progress')).toBe('resume')
    expect(actionFor('pending', 'in_progress')).toBe('start')
    expect(actionFor('in_progress', 'new')).toBeNull()
  })
})

describe('steps', () => {
  it('draws the main path with the current step and shows pending only while pending', () => {
    expect(steps('in_progress', true)).toEqual([
      { state: 'new', status: 'done' },
      { state: 'in_progress', status: 'current' },
      { state: 'complete', status: 'todo' },
      { state: 'archived', status: 'todo' },
    ])
    expect(steps('pending', false).map((s) => s.state)).toContain('pending')
    expect(steps('on_hold', true)[1]).toEqual({ state: 'in_progress', status: 'current' })
  })

  it('marks the steps a cancelled assessment never reached as skipped', () => {
    expect(steps('cancelled', false).map((s) => s.status)).toEqual(['done', 'skipped', 'skipped', 'skipped'])
    expect(steps('cancelled', true).map((s) => s.status)).toEqual(['done', 'done', 'skipped', 'skipped'])
  })
})

describe('preconditions', () => {
  it('reads the codes and counts of a refused completion', () => {
    const error = new ApiError(422, 'business_rule_violation', 'refused', 'rq', [
      { field: 'requirements', code: 'unanswered', message: '12' },
      { field: 'requirements', code: 'missing_rationale', message: '3' },
      { code: 'no_evidence', message: 'No evidence is linked.' },
    ])
    expect(preconditions(error)).toEqual([
      { code: 'unanswered', count: 12, message: '12' },
      { code: 'missing_rationale', count: 3, message: '3' },
      { code: 'no_evidence', count: null, message: 'No evidence is linked.' },
    ])
  })
  it('is empty for other errors', () => {
    expect(preconditions(null)).toEqual([])
    expect(preconditions(new ApiError(409, 'conflict', '', '', [{ code: 'read_only' }]))).toEqual([])
  })
})
