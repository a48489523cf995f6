import { api, unwrap } from '../../api/client'
import type { components } from '../../api/schema'

// The look-ups the catalogue's pickers share (entities, projects, policies): every
// tag, entities and users by name, published standards and a standard's levels.

type Schemas = components['schemas']

/** AssertSame fails to compile unless A and B are the same union (for lists that must match a generated enum). */
export type AssertSame<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never

/** Tag is a tag with its usage counts, as GET /api/v1/tags answers it. */
export type Tag = Schemas['Tag']

/** EntitySummary is an entity as pickers show it. */
export type EntitySummary = Schemas['Entity']

/** StandardSummary is a standard as pickers show it. */
export type StandardSummary = Schemas['Standard']

/** Level is one level of a standard. */
export type Level = Schemas['Level']

/** UserSummary is a user as the owner picker shows it. */
export type UserSummary = Schemas['User']

/** PICKER_LIMIT is how many matches a searching picker offers at a time. */
export const PICKER_LIMIT = 20

/** ALL_LIMIT is the largest page the server serves; pickers over short lists (tags, published standards) read one. */
export const ALL_LIMIT = 200

function trimmed(q: string): { q?: string } {
  const text = q.trim()
  return text === '' ? {} : { q: text }
}

/** fetchTagOptions reads the tags (one page of up to ALL_LIMIT, by name) for pickers and filters. */
export async function fetchTagOptions(): Promise<Tag[]> {
  const page = await unwrap(api.GET('/api/v1/tags', { params: { query: { limit: ALL_LIMIT } } }))
  return page.items ?? []
}

/**
 * searchEntities finds entities whose name or description contains `q`, by name.
 * Archived entities are left out, as the server does unless asked.
 */
export async function searchEntities(q: string): Promise<EntitySummary[]> {
  const page = await unwrap(api.GET('/api/v1/entities', { params: { query: { ...trimmed(q), limit: PICKER_LIMIT } } }))
  return page.items ?? []
}

/** fetchPublishedStandards reads the published standards (up to ALL_LIMIT, by name), the ones new work may use. */
export async function fetchPublishedStandards(q = ''): Promise<StandardSummary[]> {
  const page = await unwrap(
    api.GET('/api/v1/standards', { params: { query: { ...trimmed(q), state: 'published', limit: ALL_LIMIT } } }),
  )
  return page.items ?? []
}

/** fetchStandardLevels reads a standard's levels in their order. */
export async function fetchStandardLevels(standardId: string): Promise<Level[]> {
  const page = await unwrap(api.GET('/api/v1/standards/{id}/levels', { params: { path: { id: standardId } } }))
  return page.items ?? []
}

/** searchUsers finds users by username, e-mail or display name (needs admin.users). */
export async function searchUsers(q: string): Promise<UserSummary[]> {
  const page = await unwrap(api.GET('/api/v1/users', { params: { query: { ...trimmed(q), limit: PICKER_LIMIT } } }))
  return page.items ?? []
}

/** standardLabel names a standard with its version, e.g. "OWASP ASVS 5.0.0". */
export function standardLabel(standard: { name: string; standardVersion?: string }): string {
  return standard.standardVersion ? `${standard.name} ${standard.standardVersion}` : standard.name
}

/** PickerChoice is an option of RemoteSelect: the id, a name and a hint. */
export interface PickerChoice {
  value: string
  label: string
  hint?: string
}

/** userChoices searches users for an owner picker. */
export async function userChoices(q: string): Promise<PickerChoice[]> {
  return (await searchUsers(q)).map((user) => ({ value: user.id, label: user.displayName, hint: user.username }))
}

/** fetchEntityChoice reads one entity as a picker shows it (its name), e.g. for a value chosen before. */
export async function fetchEntityChoice(id: string): Promise<PickerChoice> {
  const entity = await unwrap(api.GET('/api/v1/entities/{id}', { params: { path: { id } } }))
  return { value: entity.id, label: entity.name }
}

/** entityChoices searches entities for a picker or a filter; `hint` adds a hint to each (e.g. its type). */
export async function entityChoices(q: string, hint?: (entity: EntitySummary) => string): Promise<PickerChoice[]> {
  return (await searchEntities(q)).map((entity) => ({ value: entity.id, label: entity.name, ...(hint ? { hint: hint(entity) } : {}) }))
}
