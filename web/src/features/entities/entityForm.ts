import type { EntityUpdate, NewEntity } from './api'
import type { Entity, EntityState, EntityType } from './types'

/** ENTITY_NAME_MAX_LENGTH bounds an entity's name, as the server does. */
export const ENTITY_NAME_MAX_LENGTH = 300

/** ENTITY_DESCRIPTION_MAX_LENGTH bounds an entity's description, as the server does. */
export const ENTITY_DESCRIPTION_MAX_LENGTH = 10000

/** ENTITY_FIELDS are the dialog's fields, named as the API's JSON names them. */
export const ENTITY_FIELDS = ['name', 'type', 'description', 'ownerId', 'tagIds'] as const

/** EntityField is one of ENTITY_FIELDS. */
export type EntityField = (typeof ENTITY_FIELDS)[number]

/** EntityDraft is what the entity dialog edits. */
export interface EntityDraft {
  name: string
  type: EntityType | ''
  description: string
  ownerId: string
  tagIds: string[]
}

/** entityDraft fills the dialog from an entity, or empty for a new one. */
export function entityDraft(entity?: Entity | null): EntityDraft {
  if (!entity) return { name: '', type: '', description: '', ownerId: '', tagIds: [] }
  return {
    name: entity.name,
    type: entity.type,
    description: entity.description,
    ownerId: entity.ownerId ?? '',
    tagIds: (entity.tags ?? []).map((tag) => tag.id),
  }
}

/** newEntity builds the create body from a complete draft; `withOwner` is false when the caller cannot pick users. */
export function newEntity(draft: EntityDraft, withOwner: boolean): NewEntity {
  const body: NewEntity = { name: draft.name.trim(), type: draft.type as EntityType }
  const description = draft.description.trim()
  if (description !== '') body.description = description
  if (withOwner && draft.ownerId !== '') body.ownerId = draft.ownerId
  if (draft.tagIds.length > 0) body.tagIds = [...draft.tagIds]
  return body
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a)
  return set.size === new Set(b).size && b.every((value) => set.has(value))
}

/**
 * entityUpdate builds the PATCH body: the version the dialog was filled from and only
 * what changed, so a save never overwrites what it did not touch. Null when nothing changed.
 */
export function entityUpdate(entity: Entity, draft: EntityDraft, withOwner: boolean): EntityUpdate | null {
  const update: EntityUpdate = { version: entity.version }
  const name = draft.name.trim()
  const description = draft.description.trim()
  if (name !== entity.name) update.name = name
  if (draft.type !== '' && draft.type !== entity.type) update.type = draft.type
  if (description !== entity.description) update.description = description
  if (withOwner && draft.ownerId !== (entity.ownerId ?? '')) update.ownerId = draft.ownerId
  if (!sameSet(draft.tagIds, (entity.tags ?? []).map((tag) => tag.id))) update.tagIds = [...draft.tagIds]
  return Object.keys(update).length === 1 ? null : update
}

/** StateAction is a move of the entity's lifecycle the detail page offers. */
export interface StateAction {
  state: EntityState
  /** labelKey names the menu entry; doneKey the confirmation, both with {name}. */
  labelKey: string
  doneKey: string
}

/**
 * stateActions lists the moves from a state, as assess.EntityLifecycle allows them:
 * active ↔ inactive, either → archived, archived → active (restore).
 */
export function stateActions(state: EntityState): StateAction[] {
  const activate = { state: 'active', labelKey: 'entities.actions.activate', doneKey: 'entities.stateChange.activated' } as const
  const deactivate = { state: 'inactive', labelKey: 'entities.actions.deactivate', doneKey: 'entities.stateChange.deactivated' } as const
  const archive = { state: 'archived', labelKey: 'entities.actions.archive', doneKey: 'entities.archive.done' } as const
  const restore = { state: 'active', labelKey: 'entities.actions.restore', doneKey: 'entities.archive.restored' } as const
  if (state === 'active') return [deactivate, archive]
  if (state === 'inactive') return [activate, archive]
  return [restore]
}
