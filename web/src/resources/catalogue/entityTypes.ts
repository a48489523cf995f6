import type { components } from '../../api/schema'
import type { AssertSame } from './api'

/** ENTITY_TYPES lists every entity type, in the order pickers and filters offer them. */
export const ENTITY_TYPES = [
  'organization',
  'business_unit',
  'team',
  'product',
  'product_version',
  'component',
  'service',
  'project',
  'vendor',
  'supplier',
] as const

/** EntityType is what an entity is (the column entities.entity_type). */
export type EntityType = components['schemas']['Entity']['type']

/** ENTITY_TYPES_COMPLETE proves that ENTITY_TYPES lists exactly the generated enum. */
export const ENTITY_TYPES_COMPLETE: AssertSame<EntityType, (typeof ENTITY_TYPES)[number]> = true
