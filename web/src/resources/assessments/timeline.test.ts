import { describe, expect, it } from 'vitest'
import { actorLabel, describeEntry, type TimelineEntry } from './timeline'

// The service may record no details at all (null), whatever the schema says.
const entry = (action: string, details: Record<string, unknown> | null = {}): TimelineEntry => ({
  id: 1, occurredAt: '2026-01-01T00:00:00Z', actor: { id: 'us_1', username: 'ada', displayName: 'Ada' },
  action, targetType: 'assessment', targetId: 'as_1', targetName: '', targetLink: '', details: details as Record<string, unknown>,
})

describe('describeEntry', () => {
  it('picks the sentence of a known action and fills in states and names', () => {
    expect(describeEntry(entry('assessment.state_changed', { from: 'new', to: 'in_progress' }))).toEqual({
      key: 'assessments.timeline.actions.assessment_state_changed', known: true, action: 'assessment.state_changed', area: 'assessment',
      params: { name: 'as_1', requirement: '', from: 'new', to: 'in_progress' },
      record: { name: 'as_1', link: null, id: 'as_1' }, requirement: null,
    })
    expect(describeEntry(entry('assessment.result_recorded', { identifier: 'V1.1.1', result: 'yes' })).params).toMatchObject({ name: 'V1.1.1', to: 'yes' })
  })
  it('names the record by the server’s name, linked to its page, and the requirement of a link by its identifier', () => {
    const linked = {
      ...entry('evidence.linked', { requirement: 'V1.2.3', requirementId: 'ar_7' }),
      targetType: 'evidence', targetId: 'ev_1', targetName: 'SBOM', targetLink: '/evidence/ev_1',
    }
    const described = describeEntry(linked, 'as_1')
    expect(described.key).toBe('assessments.timeline.actions.evidence_linked')
    expect(described.record).toEqual({ name: 'SBOM', link: '/evidence/ev_1', id: 'ev_1' })
    expect(described.requirement).toEqual({ name: 'V1.2.3', link: '/assessments/as_1?tab=requirements&requirement=ar_7', id: 'ar_7' })
  })
  it('keeps the recorded name of a deleted record, without a link, and reads an older link without its requirement', () => {
    const gone = { ...entry('evidence.unlinked', { name: 'Scratch' }), targetType: 'evidence', targetId: 'ev_2' }
    expect(describeEntry(gone, 'as_1')).toMatchObject({
      key: 'assessments.timeline.actions.evidence_unlinked_plain', record: { name: 'Scratch', link: null, id: 'ev_2' }, requirement: null,
    })
  })
  it('words an action without a sentence as a generic change to its area, naming the record where the server names it', () => {
    expect(describeEntry(entry('attestation.teleported', null))).toMatchObject({
      key: 'assessments.timeline.other', known: false, action: 'attestation.teleported', area: 'attestation',
    })
    expect(describeEntry({ ...entry('attestation.teleported'), targetName: 'Payments review' })).toMatchObject({
      key: 'assessments.timeline.otherNamed', known: false,
    })
  })
  it('gives the attestation and affirmation actions a sentence of their own', () => {
    for (const action of ['attestation.created', 'affirmation.signatory_assigned', 'affirmation.frozen', 'affirmation.signed', 'affirmation.seal_ready', 'affirmation.sealed']) {
      expect(describeEntry(entry(action)).key).toBe(`assessments.timeline.actions.${action.replace('.', '_')}`)
    }
  })
})

describe('actorLabel', () => {
  it('names a user and leaves the service to a translated label', () => {
    expect(actorLabel(entry('claim.created'))).toBe('Ada')
    expect(actorLabel({ ...entry('evidence.expired'), actor: { id: 'system', username: '', displayName: '' } })).toBeNull()
  })
})
