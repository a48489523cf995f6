import { api, unwrap } from '../../api/client'
import type { components } from '../../api/schema'
import type { TagOption } from '../../resources/tags/tag'
import { standardQuery, VERSIONS_PAGE_SIZE, type StandardFilters } from './filters'
import type { Level, Requirement, Standard } from './types'

type Schemas = components['schemas']

export type { Level, Requirement, Standard }
export type StandardPage = Schemas['PageStandard']
export type StandardTree = Schemas['StandardTree']
export type NewStandard = Schemas['NewStandard']
export type StandardUpdate = Schemas['StandardUpdate']
export type NewRequirement = Schemas['NewRequirement']
export type RequirementFields = Schemas['RequirementUpdate']
export type NewLevel = Schemas['NewLevel']
export type LevelUpdate = Schemas['LevelUpdate']
export type DuplicateRequest = Schemas['DuplicateRequest']
export type ImportResult = Schemas['ImportResult']
export type ImportedStandard = Schemas['ImportedStandard']
export type RowImportResult = Schemas['RowImportResult']
export type FeedItem = Schemas['FeedItem']

export { VERSION_CONFLICT } from '../../api/errors'

/** CYCLONEDX_VERSIONS are the CycloneDX spec versions a standard exports to. */
export const CYCLONEDX_VERSIONS = ['1.6', '1.7'] as const
export type CycloneDxVersion = (typeof CYCLONEDX_VERSIONS)[number]

const BASE = '/api/v1/standards'

function path(id: string) {
  return { params: { path: { id } } }
}

// Multipart bodies: openapi-fetch sends a FormData as it is (the browser sets the boundary).
function fileForm(file: Blob, name: string): { file: string } {
  const form = new FormData()
  form.append('file', file, name)
  return form as unknown as { file: string }
}

/** listStandards lists standards matching the filters (GET /api/v1/standards). */
export function listStandards(filters: StandardFilters, cursor?: string): Promise<StandardPage> {
  return unwrap(api.GET(BASE, { params: { query: standardQuery(filters, cursor) } }))
}

/** fetchStandard reads one standard (GET /api/v1/standards/{id}). */
export function fetchStandard(id: string): Promise<Standard> {
  return unwrap(api.GET(`${BASE}/{id}`, path(id)))
}

/** fetchTree reads the standard with its whole requirement tree and levels (GET …/tree). */
export function fetchTree(id: string): Promise<StandardTree> {
  return unwrap(api.GET(`${BASE}/{id}/tree`, path(id)))
}

/** listVersions lists the versions of the standard's identifier, newest first (GET …/versions). */
export function listVersions(id: string, cursor?: string): Promise<StandardPage> {
  return unwrap(
    api.GET(`${BASE}/{id}/versions`, { params: { path: { id }, query: { limit: VERSIONS_PAGE_SIZE, ...(cursor ? { cursor } : {}) } } }),
  )
}

/** createStandard authors a draft (POST /api/v1/standards, 201). */
export function createStandard(body: NewStandard): Promise<Standard> {
  return unwrap(api.POST(BASE, { body }))
}

/** updateStandard changes metadata (drafts) or tags (any state); a stale version is 409 version_conflict. */
export function updateStandard(id: string, body: StandardUpdate): Promise<Standard> {
  return unwrap(api.PATCH(`${BASE}/{id}`, { ...path(id), body }))
}

/** deleteStandard deletes a draft or a retired standard (DELETE, 204). */
export async function deleteStandard(id: string): Promise<void> {
  await unwrap(api.DELETE(`${BASE}/{id}`, path(id)))
}

/** submitStandard sends a draft for review. */
export function submitStandard(id: string): Promise<Standard> {
  return unwrap(api.POST(`${BASE}/{id}/submit`, path(id)))
}

/** approveStandard publishes a standard in review; the submitter is refused (422 four_eyes). */
export function approveStandard(id: string): Promise<Standard> {
  return unwrap(api.POST(`${BASE}/{id}/approve`, path(id)))
}

/** rejectStandard sends a standard in review back to draft with a reason. */
export function rejectStandard(id: string, reason: string): Promise<Standard> {
  return unwrap(api.POST(`${BASE}/{id}/reject`, { ...path(id), body: { reason } }))
}

/** retireStandard retires a published standard; in use it is refused (422 in_use) unless `force`. */
export function retireStandard(id: string, force = false): Promise<Standard> {
  return unwrap(api.POST(`${BASE}/{id}/retire`, { ...path(id), body: force ? { force } : {} }))
}

/** duplicateStandard copies a standard into a new draft version (201). */
export function duplicateStandard(id: string, body: DuplicateRequest): Promise<Standard> {
  return unwrap(api.POST(`${BASE}/{id}/duplicate`, { ...path(id), body }))
}

/** createRequirement adds a requirement to a draft. */
export function createRequirement(id: string, body: NewRequirement): Promise<Requirement> {
  return unwrap(api.POST(`${BASE}/{id}/requirements`, { ...path(id), body }))
}

function requirementPath(id: string, requirementId: string) {
  return { params: { path: { id, requirementId } } }
}

/** fetchRequirement reads one requirement (GET …/requirements/{requirementId}). */
export function fetchRequirement(id: string, requirementId: string): Promise<Requirement> {
  return unwrap(api.GET(`${BASE}/{id}/requirements/{requirementId}`, requirementPath(id, requirementId)))
}

/** updateRequirement changes a requirement; `version` is the requirement's own. */
export function updateRequirement(id: string, requirementId: string, body: RequirementFields): Promise<Requirement> {
  return unwrap(api.PATCH(`${BASE}/{id}/requirements/{requirementId}`, { ...requirementPath(id, requirementId), body }))
}

/** moveRequirement places a requirement under `parentId` (null: top level) at `position`. */
export function moveRequirement(id: string, requirementId: string, parentId: string | null, position: number): Promise<Requirement> {
  return unwrap(
    api.POST(`${BASE}/{id}/requirements/{requirementId}/move`, { ...requirementPath(id, requirementId), body: { parentId, position } }),
  )
}

/** deleteRequirement deletes a requirement with its subtree. */
export async function deleteRequirement(id: string, requirementId: string): Promise<void> {
  await unwrap(api.DELETE(`${BASE}/{id}/requirements/{requirementId}`, requirementPath(id, requirementId)))
}

/** createLevel adds a level. */
export function createLevel(id: string, body: NewLevel): Promise<Level> {
  return unwrap(api.POST(`${BASE}/{id}/levels`, { ...path(id), body }))
}

function levelPath(id: string, levelId: string) {
  return { params: { path: { id, levelId } } }
}

/** updateLevel changes a level; `requirementIds`, when given, is the full member set. */
export function updateLevel(id: string, levelId: string, body: LevelUpdate): Promise<Level> {
  return unwrap(api.PATCH(`${BASE}/{id}/levels/{levelId}`, { ...levelPath(id, levelId), body }))
}

/** deleteLevel deletes a level (its requirements stay). */
export async function deleteLevel(id: string, levelId: string): Promise<void> {
  await unwrap(api.DELETE(`${BASE}/{id}/levels/{levelId}`, levelPath(id, levelId)))
}

/** importFile uploads a CycloneDX document (POST /standards/import, multipart). */
export function importFile(file: File): Promise<ImportResult> {
  return unwrap(api.POST(`${BASE}/import`, { body: fileForm(file, file.name) }))
}

/** importUrl has the server download and import a CycloneDX document. */
export function importUrl(url: string): Promise<ImportResult> {
  return unwrap(api.POST(`${BASE}/import-url`, { body: { url } }))
}

/** importCsv upserts the requirements of a CSV file into a draft. */
export function importCsv(id: string, file: File): Promise<RowImportResult> {
  return unwrap(api.POST(`${BASE}/{id}/import-csv`, { ...path(id), body: fileForm(file, file.name) }))
}

/** listFeed reads the standards feed with each item's local status. */
export async function listFeed(): Promise<FeedItem[]> {
  const answer = await unwrap(api.GET(`${BASE}/feed`))
  return answer.items ?? []
}

/** importFeedItem imports one item of the feed beside any other version. */
export function importFeedItem(itemId: string): Promise<ImportResult> {
  return unwrap(api.POST(`${BASE}/feed/import`, { body: { itemId } }))
}

/** exportUrl is the download address of a CycloneDX export; an anchor to it carries the session cookie. */
export function exportUrl(id: string, specVersion: CycloneDxVersion): string {
  return `${BASE}/${encodeURIComponent(id)}/export?specVersion=${encodeURIComponent(specVersion)}`
}

/** exportCsvUrl is the download address of the CSV export. */
export function exportCsvUrl(id: string): string {
  return `${BASE}/${encodeURIComponent(id)}/export.csv`
}

/** TAGS_LIMIT is how many tags the pickers load (one page: tags are few). */
export const TAGS_LIMIT = 200

/** listTagOptions reads the tags for pickers and filters (GET /api/v1/tags, open to every signed-in user). */
export async function listTagOptions(): Promise<TagOption[]> {
  const page = await unwrap(api.GET('/api/v1/tags', { params: { query: { limit: TAGS_LIMIT } } }))
  return (page.items ?? []).map(({ id, name, color }) => ({ id, name, color }))
}
