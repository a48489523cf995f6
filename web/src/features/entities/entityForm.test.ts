import { describe, expect, it } from 'vitest'
import { entityDraft, entityUpdate, newEntity, stateActions } from './entityForm'
import type { Entity } from './types'

const entity: Entity = {
  id: 'en_1',
  name: 'Payments API',
  description: 'Card payments',
  type: 'service',
  state: 'active',
  bomRef: 'en_1',
  ownerId: 'u_1',
  ownerName: 'Ada',
  tags: [{ id: 'tg_1', name: 'Critical', color: '#dc2626' }],
  version: 4,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
}

describe('the entity form', () => {
  it('creates with the trimmed name and only what was filled in', () => {
    const draft = { ...entityDraft(), name: '  Web shop ', type: 'product' as const, ownerId: 'u_2' }
    expect(newEntity(draft, true)).toEqual({ name: 'Web shop', type: 'product', ownerId: 'u_2' })
    expect(newEntity(draft, false)).toEqual({ name: 'Web shop', type: 'product' })
  })

  it('sends only what changed, with the version it read', () => {
    expect(entityUpdate(entity, entityDraft(entity), true)).toBeNull()
    const draft = { ...entityDraft(entity), description: 'Card and wallet payments', tagIds: [] }
    expect(entityUpdate(entity, draft, true)).toEqual({ version: 4, description: 'Card and wallet payments', tagIds: [] })
  })

  it('leaves the owner alone for those who cannot pick users', () => {
    expect(entityUpdate(entity, { ...entityDraft(entity), ownerId: '' }, false)).toBeNull()
    expect(entityUpdate(entity, { ...entityDraft(entity), ownerId: '' }, true)).toEqual({ version: 4, ownerId: '' })
  })
})

describe('state actions', () => {
  it('follow the entity lifecycle', () => {
    expect(stateActions('active').map((action) => action.state)).toEqual(['inactive', 'archived'])
    expect(stateActions('inactive').map((action) => action.state)).toEqual(['active', 'archived'])
    expect(stateActions('archived').map((action) => action.labelKey)).toEqual(['entities.actions.restore'])
  })
})
