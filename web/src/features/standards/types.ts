// Local mirrors of the standard types of pkg/assess/standard.go, for the components of
// this feature until the OpenAPI document carries the standards operations.
// TODO: replace each with components['schemas'][…] from web/src/api/schema.d.ts once
// `npm run gen:api` produces them (Standard, Requirement, Level, …).

/** StandardState is where a standard is in its four-eyes lifecycle. */
export type StandardState = 'draft' | 'in_review' | 'published' | 'retired'

/** STANDARD_STATES lists the states in lifecycle order (filters, tags). */
export const STANDARD_STATES: readonly StandardState[] = ['draft', 'in_review', 'published', 'retired']

/** ExternalReference is a link to an outside resource (CycloneDX externalReferences). */
export interface ExternalReference {
  type: string
  url: string
  comment?: string
}

/** Requirement is one node of a standard's requirement tree. */
export interface Requirement {
  id: string
  standardId: string
  /** Absent for a top-level requirement. */
  parentId?: string
  identifier: string
  name: string
  description: string
  openCre: string[]
  externalReferences: ExternalReference[]
  /** Order among its siblings. */
  position: number
  /** Ids of the levels that include it. */
  levels: string[]
  /** Optimistic-concurrency version. */
  version: number
}

/** TreeRequirement is a requirement as the tree answer lists it (depth-first, flat). */
export interface TreeRequirement extends Requirement {
  depth: number
  childCount: number
}

/** Level is a named subset of a standard's requirements (ASVS L1–L3, …). */
export interface Level {
  id: string
  standardId?: string
  identifier: string
  title: string
  description: string
  position?: number
  requirementCount: number
  version: number
}

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
