import { describe, expect, it } from 'vitest'
import { actorLabel, describeEntry } from './timeline'
import type { TimelineEntry } from './types'

// The service may record no details at all (null), whatever the schema says.
const entry = (action: string, details: Record<string, unknown> | null = {}): TimelineEntry => ({
  id: 1, occurredAt: '2026-01-01T00:00:00Z', actor: { id: 'us_1', username: 'ada', displayName: 'Ada' },
  action, targetType: 'assessment', targetId: 'as_1', details: details as Record<string, unknown>,
})

describe('describeEntry', () => {
  it('picks the sentence of a known action and fills in states and names', () => {
    expect(describeEntry(entry('assessment.state_changed', { from: 'new', to: 'in_progress' }))).toEqual({
      key: 'assessments.timeline.actions.assessment_state_changed', action: 'assessment.state_changed',
      params: { name: 'as_1', from: 'new', to: 'in_progress' },
    })
    expect(describeEntry(entry('assessment.result_recorded', { identifier: 'V1.1.1', result: 'yes' })).params).toMatchObject({ name: 'V1.1.1', to: 'yes' })
  })
  it('keeps an unknown action as recorded', () => {
    expect(describeEntry(entry('attestation.sealed', null))).toMatchObject({ key: null, action: 'attestation.sealed' })
  })
})

describe('actorLabel', () => {
  it('names a user and leaves the service to a translated label', () => {
    expect(actorLabel(entry('claim.created'))).toBe('Ada')
    expect(actorLabel({ ...entry('evidence.expired'), actor: { id: 'system', username: '', displayName: '' } })).toBeNull()
  })
})
