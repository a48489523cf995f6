// The standard types of this feature: the records come from the generated API types
// (web/src/api/schema.d.ts); the event payloads of the components are local.
import type { components } from '../../api/schema'

type Schemas = components['schemas']

/** Standard is a versioned catalogue of requirements. */
export type Standard = Schemas['Standard']

/** StandardState is where a standard is in its four-eyes lifecycle. */
export type StandardState = Standard['state']

/** STANDARD_STATES lists the states in lifecycle order (filters, tags). */
export const STANDARD_STATES: readonly StandardState[] = ['draft', 'in_review', 'published', 'retired']

/** ExternalReference is a link to an outside resource (CycloneDX externalReferences). */
export type ExternalReference = Schemas['ExternalReference']

/** Requirement is one node of a standard's requirement tree; `levels` lists the ids of the levels that include it. */
export type Requirement = Schemas['Requirement']

/** TreeRequirement is a requirement as the tree answer lists it (depth-first, flat). */
export type TreeRequirement = Schemas['TreeRequirement']

/** Level is a named subset of a standard's requirements (ASVS L1–L3, …). */
export type Level = Schemas['Level']

/** RequirementChanges are the fields the tree edits inline; only changed ones are set. */
export interface RequirementChanges {
  identifier?: string
  name?: string
  description?: string
}

/** RequirementUpdate is the payload of the tree's `update` event. */
export interface RequirementUpdate {
  id: string
  changes: RequirementChanges
}

/**
 * RequirementPlacement says where a requirement goes: under `parentId` (null: top level)
 * at `position`, its 0-based index among its new siblings once it is there.
 */
export interface RequirementPlacement {
  parentId: string | null
  position: number
}

/** RequirementMove is the payload of the tree's `move` event. */
export interface RequirementMove extends RequirementPlacement {
  id: string
}

/** LevelMembership is the payload of the tree's `toggle-level` event. */
export interface LevelMembership {
  requirementId: string
  levelId: string
  member: boolean
}

/** LevelFields are the fields of a level the level editor creates and edits. */
export interface LevelFields {
  identifier: string
  title: string
  description: string
}

/** ImportError is one validation error of an imported document. */
export interface ImportError {
  /** JSON path of the offending value, e.g. $.definitions.standards[0].requirements[3].identifier */
  path: string
  message: string
}
