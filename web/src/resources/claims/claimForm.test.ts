import { describe, expect, it } from 'vitest'
import {
  claimDraft,
  claimUpdate,
  draftProblems,
  isValid,
  newClaim,
  referenceErrorIndex,
  referenceProblems,
  referenceRow,
  REFERENCE_TYPES,
} from './claimForm'
import type { Claim } from './types'

const claim: Claim = {
  id: 'cl_1',
  assessmentId: 'as_1',
  name: 'Output is encoded',
  target: 'Web Shop',
  targetEntityId: 'en_1',
  targetEntityName: 'Web Shop',
  predicate: 'encodes all output',
  reasoning: 'Reviewed templates',
  isCounterClaim: false,
  evidence: [{ id: 'ev_1', name: 'Pentest', state: 'claimed' }],
  counterEvidence: [],
  mitigationStrategies: null,
  requirementIds: ['ar_1'],
  externalReferences: [{ type: 'pentest-report', url: 'https://example.com/r', comment: 'Q1' }],
  version: 4,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
}

describe('claim draft checks', () => {
  it('requires a name, a target (entity or text) and a predicate', () => {
    const draft = claimDraft()
    expect(draftProblems(draft)).toEqual({ name: 'nameRequired', target: 'targetRequired', predicate: 'predicateRequired' })
    draft.name = 'Claim'
    draft.predicate = 'holds'
    draft.targetKind = 'text'
    draft.target = '  '
    expect(draftProblems(draft)).toEqual({ target: 'targetRequired' })
    draft.target = 'The shop'
    expect(isValid(draft)).toBe(true)
    draft.name = 'x'.repeat(301)
    expect(draftProblems(draft).name).toBe('nameLength')
  })

  it('refuses a claim countering itself', () => {
    const draft = claimDraft(claim)
    draft.isCounterClaim = true
    draft.countersClaimId = 'cl_1'
    expect(draftProblems(draft, 'cl_1').countersClaimId).toBe('countersSelf')
  })

  it('checks each reference row: a CycloneDX type, an http(s) URL, a short comment', () => {
    expect(REFERENCE_TYPES).toContain('pentest-report')
    expect(referenceProblems(referenceRow())).toEqual({ type: 'typeRequired', url: 'urlRequired' })
    expect(referenceProblems({ ...referenceRow(), type: 'blog', url: 'javascript:alert(1)' })).toEqual({ type: 'typeUnknown', url: 'urlInvalid' })
    expect(referenceProblems({ ...referenceRow(), type: 'vcs', url: 'ftp://example.com' })).toEqual({ url: 'urlInvalid' })
    expect(referenceProblems({ ...referenceRow(), type: 'vcs', url: 'https://example.com', comment: 'c'.repeat(1001) })).toEqual({
      comment: 'commentLength',
    })
    expect(referenceProblems({ ...referenceRow(), type: 'vcs', url: ' https://git.example.com/repo ' })).toEqual({})
    const draft = claimDraft(claim)
    draft.references.push(referenceRow())
    expect(isValid(draft)).toBe(false)
  })

  it('reads which reference row a server detail names', () => {
    expect(referenceErrorIndex('externalReferences[2].url')).toEqual({ index: 2, field: 'url' })
    expect(referenceErrorIndex('body.externalReferences[0].type')).toEqual({ index: 0, field: 'type' })
    expect(referenceErrorIndex('externalReferences[1]')).toEqual({ index: 1, field: '' })
    expect(referenceErrorIndex('name')).toBeNull()
  })
})

describe('claim requests', () => {
  it('creates with an entity target, the lists and the references', () => {
    const draft = claimDraft(null, ['ar_9'])
    Object.assign(draft, { name: ' Claim ', targetEntityId: 'en_1', predicate: ' holds ', evidenceIds: ['ev_1'] })
    draft.references.push({ ...referenceRow(), type: 'website', url: 'https://example.com ', comment: '' })
    expect(newClaim(draft)).toEqual({
      name: 'Claim',
      targetEntityId: 'en_1',
      predicate: 'holds',
      evidenceIds: ['ev_1'],
      requirementIds: ['ar_9'],
      externalReferences: [{ type: 'website', url: 'https://example.com' }],
    })
  })

  it('sends the claim countered only for a counter-claim', () => {
    const draft = claimDraft()
    Object.assign(draft, { name: 'C', targetKind: 'text', target: 'T', predicate: 'P', countersClaimId: 'cl_2' })
    expect(newClaim(draft).countersClaimId).toBeUndefined()
    draft.isCounterClaim = true
    expect(newClaim(draft)).toMatchObject({ isCounterClaim: true, countersClaimId: 'cl_2' })
  })

  it('updates with the version, replaces only changed lists, and clears the entity for a text target', () => {
    const draft = claimDraft(claim)
    expect(draft.targetKind).toBe('entity')
    expect(claimUpdate(claim, draft)).toEqual({
      version: 4,
      name: 'Output is encoded',
      predicate: 'encodes all output',
      reasoning: 'Reviewed templates',
      isCounterClaim: false,
      countersClaimId: '',
      targetEntityId: 'en_1',
    })
    draft.targetKind = 'text'
    draft.target = 'The checkout'
    draft.counterEvidenceIds = ['ev_2']
    draft.references.splice(0, 1)
    const update = claimUpdate(claim, draft)
    expect(update).toMatchObject({ target: 'The checkout', targetEntityId: '', counterEvidenceIds: ['ev_2'], externalReferences: [] })
    expect(update.evidenceIds).toBeUndefined()
    expect(update.requirementIds).toBeUndefined()
  })

  it('clears the old free text when the target becomes an entity', () => {
    const textClaim: Claim = { ...claim, targetEntityId: undefined, targetEntityName: undefined, target: 'The checkout' }
    const draft = claimDraft(textClaim)
    expect(draft.targetKind).toBe('text')
    draft.targetKind = 'entity'
    draft.targetEntityId = 'en_2'
    expect(claimUpdate(textClaim, draft)).toMatchObject({ targetEntityId: 'en_2', target: '' })
  })
})
