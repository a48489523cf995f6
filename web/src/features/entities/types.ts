import { Box, Connection, Cpu, Files, OfficeBuilding, Operation, Shop, Suitcase, User, Van } from '@element-plus/icons-vue'
import type { Component } from 'vue'
import type { components } from '../../api/schema'
import type { AssertSame } from '../../resources/catalogue/api'

// The entity types come from the generated schema (src/api/schema.d.ts); the lists
// below give their order in pickers and are checked against the generated enums.

type Schemas = components['schemas']

/** Entity is an entity as GET /api/v1/entities/{id} answers it. */
export type Entity = Schemas['Entity']

/** Relationship is a directed edge as an entity's relationship list shows it. */
export type Relationship = Schemas['Relationship']

/** Policy is a compliance policy, the entity's own or inherited. */
export type Policy = Schemas['Policy']


import { ENTITY_TYPES, type EntityType } from '../../resources/catalogue/entityTypes'

export { ENTITY_TYPES, type EntityType }

/** ENTITY_STATES lists an entity's states; archived ones are hidden from lists by default. */
export const ENTITY_STATES = ['active', 'inactive', 'archived'] as const

/** EntityState is an entity's lifecycle state. */
export type EntityState = Entity['state']

/** ENTITY_STATES_COMPLETE proves that ENTITY_STATES lists exactly the generated enum. */
export const ENTITY_STATES_COMPLETE: AssertSame<EntityState, (typeof ENTITY_STATES)[number]> = true

/** RELATIONSHIP_TYPES lists the directed relationship types between two entities. */
export const RELATIONSHIP_TYPES = [
  'owns',
  'contains',
  'governs',
  'supplies',
  'depends_on',
  'consumes',
  'assesses',
  'produces',
] as const

/** RelationshipType is the kind of a directed edge: source <type> target. */
export type RelationshipType = Relationship['type']

/** RELATIONSHIP_TYPES_COMPLETE proves that RELATIONSHIP_TYPES lists exactly the generated enum. */
export const RELATIONSHIP_TYPES_COMPLETE: AssertSame<RelationshipType, (typeof RELATIONSHIP_TYPES)[number]> = true

/**
 * HIERARCHICAL_RELATIONSHIPS are the edges that express a structure (a parent above
 * its children); compliance policies are inherited along them. A graph made only of
 * these is drawn in layers.
 */
export const HIERARCHICAL_RELATIONSHIPS: ReadonlySet<RelationshipType> = new Set(['owns', 'contains', 'governs'])

/** GraphNode is an entity as the graph endpoints return it; `depth` counts edges from the centre (entity graphs only). */
export type GraphNode = Schemas['GraphNode']

/** GraphEdge is a relationship as the graph endpoints return it: source <type> target. */
export type GraphEdge = Schemas['GraphEdge']

/** EntityGraph is the answer of GET /entities/graph and GET /entities/{id}/graph. */
export type EntityGraph = Schemas['Graph']

/** GraphSymbol is one of the ECharts built-in node shapes. */
export type GraphSymbol = 'circle' | 'rect' | 'roundRect' | 'triangle' | 'diamond' | 'pin'

/** EntityTypeStyle is how a type looks: its colour, its graph symbol and its icon. */
export interface EntityTypeStyle {
  color: string
  symbol: GraphSymbol
  icon: Component
}

// Colours stay distinguishable on white and on Element Plus' dark background, and
// types that share a colour family differ by shape, so colour is never the only cue.
/** ENTITY_TYPE_STYLES gives each entity type a colour, a graph symbol and an icon. */
export const ENTITY_TYPE_STYLES: Record<EntityType, EntityTypeStyle> = {
  organization: { color: '#4f46e5', symbol: 'roundRect', icon: OfficeBuilding },
  business_unit: { color: '#0284c7', symbol: 'roundRect', icon: Operation },
  team: { color: '#0d9488', symbol: 'circle', icon: User },
  product: { color: '#16a34a', symbol: 'diamond', icon: Box },
  product_version: { color: '#65a30d', symbol: 'diamond', icon: Files },
  component: { color: '#ca8a04', symbol: 'rect', icon: Cpu },
  service: { color: '#ea580c', symbol: 'circle', icon: Connection },
  project: { color: '#db2777', symbol: 'triangle', icon: Suitcase },
  vendor: { color: '#9333ea', symbol: 'pin', icon: Shop },
  supplier: { color: '#64748b', symbol: 'pin', icon: Van },
}

/** Translate is vue-i18n's `t` as the helpers below need it. */
export type Translate = (key: string, values?: Record<string, unknown>) => string

/** entityTypeLabel is the translated name of an entity type ("Business unit"). */
export function entityTypeLabel(t: Translate, type: EntityType): string {
  return t(`entities.types.${type}`)
}

/** entityStateLabel is the translated name of an entity state. */
export function entityStateLabel(t: Translate, state: EntityState): string {
  return t(`entities.states.${state}`)
}

/** relationshipLabel is the translated, short name of a relationship type ("depends on"). */
export function relationshipLabel(t: Translate, type: RelationshipType): string {
  return t(`entities.relationships.types.${type}`)
}

/**
 * relationshipSentence says what an edge means as a sentence ("Team A owns Product B").
 * Each type has its own sentence because word order differs between languages.
 */
export function relationshipSentence(t: Translate, type: RelationshipType, source: string, target: string): string {
  return t(`entities.relationships.sentences.${type}`, { source, target })
}

/** isDimmed reports whether an entity is drawn faded: it is inactive or archived. */
export function isDimmed(state: EntityState): boolean {
  return state !== 'active'
}
