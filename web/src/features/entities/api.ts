import { api, unwrap } from '../../api/client'
import type { components } from '../../api/schema'
import { entityQuery, type EntityFilters } from './filters'
import type { Entity, EntityGraph, Policy, Relationship } from './types'

export type { Entity, EntityGraph, Policy, Relationship }
export { VERSION_CONFLICT } from '../../api/errors'

type Schemas = components['schemas']

/** EntityPage is one page of the entity list. */
export type EntityPage = Schemas['PageEntity']
/** NewEntity is what the create dialog submits. */
export type NewEntity = Schemas['NewEntity']
/** EntityUpdate is a change to an entity; `version` is the one last read. */
export type EntityUpdate = Schemas['EntityUpdate']
/** NewRelationship is an edge from the entity to `targetId`. */
export type NewRelationship = Schemas['NewRelationship']
/** NewPolicy applies a standard (optionally one level) to an entity. */
export type NewPolicy = Schemas['NewPolicy']
/** PolicyUpdate changes a policy's level or description. */
export type PolicyUpdate = Schemas['PolicyUpdate']

/** GraphDirection is which edges an entity's graph follows from it. */
export type GraphDirection = 'both' | 'outgoing' | 'incoming'

/** IN_USE is the error code of deleting an entity a project still names. */
export const IN_USE = 'in_use'

const byId = (id: string) => ({ params: { path: { id } } })

/** listEntities lists entities matching the filters (GET /api/v1/entities). */
export function listEntities(filters: EntityFilters, cursor?: string): Promise<EntityPage> {
  return unwrap(api.GET('/api/v1/entities', { params: { query: entityQuery(filters, cursor) } }))
}

/** fetchEntity reads one entity (GET /api/v1/entities/{id}); 404 for an unknown id. */
export function fetchEntity(id: string): Promise<Entity> {
  return unwrap(api.GET('/api/v1/entities/{id}', byId(id)))
}

/** createEntity adds an entity (POST /api/v1/entities, 201). */
export function createEntity(entity: NewEntity): Promise<Entity> {
  return unwrap(api.POST('/api/v1/entities', { body: entity }))
}

/** updateEntity changes an entity, its state included (PATCH /api/v1/entities/{id}); a stale version is 409 version_conflict. */
export function updateEntity(id: string, update: EntityUpdate): Promise<Entity> {
  return unwrap(api.PATCH('/api/v1/entities/{id}', { ...byId(id), body: update }))
}

/** deleteEntity removes an entity with its relationships and policies; 409 in_use while a project names it. */
export async function deleteEntity(id: string): Promise<void> {
  await unwrap(api.DELETE('/api/v1/entities/{id}', byId(id)))
}

/** listRelationships lists the edges the entity is the source or the target of, newest first. */
export function listRelationships(id: string, cursor?: string): Promise<Schemas['PageRelationship']> {
  return unwrap(
    api.GET('/api/v1/entities/{id}/relationships', { params: { path: { id }, query: { limit: 100, ...(cursor ? { cursor } : {}) } } }),
  )
}

/** addRelationship adds the edge entity → target (POST /api/v1/entities/{id}/relationships, 201). */
export function addRelationship(id: string, relationship: NewRelationship): Promise<Relationship> {
  return unwrap(api.POST('/api/v1/entities/{id}/relationships', { ...byId(id), body: relationship }))
}

/** removeRelationship removes an edge; either end may. */
export async function removeRelationship(id: string, relationshipId: string): Promise<void> {
  await unwrap(
    api.DELETE('/api/v1/entities/{id}/relationships/{relationshipId}', { params: { path: { id, relationshipId } } }),
  )
}

/** fetchEntityGraph reads the entities within `depth` edges of the entity, following `direction`. */
export function fetchEntityGraph(id: string, depth: number, direction: GraphDirection): Promise<EntityGraph> {
  return unwrap(api.GET('/api/v1/entities/{id}/graph', { params: { path: { id }, query: { depth, direction } } }))
}

/** fetchOrganisationGraph reads every relationship between entities that are not archived. */
export function fetchOrganisationGraph(): Promise<EntityGraph> {
  return unwrap(api.GET('/api/v1/entities/graph'))
}

/** listPolicies reads the entity's effective policies: its own, then inherited ones (with inheritedFrom). */
export async function listPolicies(id: string): Promise<Policy[]> {
  const page = await unwrap(api.GET('/api/v1/entities/{id}/policies', byId(id)))
  return page.items ?? []
}

/** addPolicy applies a standard to the entity (POST /api/v1/entities/{id}/policies, 201). */
export function addPolicy(id: string, policy: NewPolicy): Promise<Policy> {
  return unwrap(api.POST('/api/v1/entities/{id}/policies', { ...byId(id), body: policy }))
}

/** updatePolicy changes one of the entity's own policies. */
export function updatePolicy(id: string, policyId: string, update: PolicyUpdate): Promise<Policy> {
  return unwrap(api.PATCH('/api/v1/entities/{id}/policies/{policyId}', { params: { path: { id, policyId } }, body: update }))
}

/** removePolicy removes one of the entity's own policies. */
export async function removePolicy(id: string, policyId: string): Promise<void> {
  await unwrap(api.DELETE('/api/v1/entities/{id}/policies/{policyId}', { params: { path: { id, policyId } } }))
}
