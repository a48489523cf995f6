import { api, unwrap } from '../../api/client'
import type { components } from '../../api/schema'

export { VERSION_CONFLICT } from '../../api/errors'

type Schemas = components['schemas']

/** Tag is a tag with its usage counts. */
export type Tag = Schemas['Tag']
/** TagPage is one page of the tag list. */
export type TagPage = Schemas['PageTag']
/** NewTag is a tag to create; without a colour the server picks one from the name. */
export type NewTag = Schemas['NewTag']
/** TagUpdate is a change to a tag; `version` is the one last read. */
export type TagUpdate = Schemas['TagUpdate']

/** TAG_PAGE_SIZE is how many tags one page lists. */
export const TAG_PAGE_SIZE = 100

/** listTags lists tags by name, optionally those whose name or description contains `q`. */
export function listTags(q: string, cursor?: string): Promise<TagPage> {
  const text = q.trim()
  return unwrap(
    api.GET('/api/v1/tags', {
      params: { query: { limit: TAG_PAGE_SIZE, ...(text ? { q: text } : {}), ...(cursor ? { cursor } : {}) } },
    }),
  )
}

/** createTag adds a tag (POST /api/v1/tags, 201); a name taken in any letter case is 409 already_exists on `name`. */
export function createTag(tag: NewTag): Promise<Tag> {
  return unwrap(api.POST('/api/v1/tags', { body: tag }))
}

/** updateTag changes a tag; a stale version is 409 version_conflict. */
export function updateTag(id: string, update: TagUpdate): Promise<Tag> {
  return unwrap(api.PATCH('/api/v1/tags/{id}', { params: { path: { id } }, body: update }))
}

/** deleteTag removes a tag and detaches it from every record carrying it. */
export async function deleteTag(id: string): Promise<void> {
  await unwrap(api.DELETE('/api/v1/tags/{id}', { params: { path: { id } } }))
}

/** tagUpdate builds the PATCH body with only what changed; null when nothing did. */
export function tagUpdate(tag: Tag, draft: { name: string; color: string; description: string }): TagUpdate | null {
  const update: TagUpdate = { version: tag.version }
  if (draft.name !== tag.name) update.name = draft.name
  if (draft.color.toLowerCase() !== tag.color.toLowerCase()) update.color = draft.color
  if (draft.description !== tag.description) update.description = draft.description
  return Object.keys(update).length === 1 ? null : update
}

/** usageTotal is how many records (of the kinds the caller may see) carry the tag. */
export function usageTotal(tag: Tag): number {
  return (tag.usage.standards ?? 0) + (tag.usage.entities ?? 0) + (tag.usage.projects ?? 0)
}
