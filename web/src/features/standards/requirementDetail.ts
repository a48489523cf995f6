// What the requirement detail drawer shows and sends: OpenCRE and reference links, the
// checks of its form, and the PATCH body built from what changed.
import type { RequirementFields } from './api'
import type { ExternalReference, Requirement } from './types'

/** REFERENCE_TYPES are the CycloneDX external reference types the form offers. */
export const REFERENCE_TYPES = ['website', 'documentation', 'vcs', 'issue-tracker', 'other'] as const

/** MAX_OPEN_CRE is how many OpenCRE ids a requirement may carry (as the server checks). */
export const MAX_OPEN_CRE = 50
/** MAX_OPEN_CRE_LENGTH bounds one OpenCRE id (looser than the real CRE:123-456 shape). */
export const MAX_OPEN_CRE_LENGTH = 64
/** MAX_REFERENCES is how many external references a requirement may carry. */
export const MAX_REFERENCES = 100
/** MAX_NAME_LENGTH and MAX_COMMENT_LENGTH are the server's limits. */
export const MAX_NAME_LENGTH = 1000
export const MAX_COMMENT_LENGTH = 1000
export const MAX_URL_LENGTH = 2048

const OPENCRE_BASE = 'https://www.opencre.org/cre/'

/** openCreUrl is the OpenCRE page of an id: `CRE:764-507` → https://www.opencre.org/cre/764-507. */
export function openCreUrl(id: string): string {
  return OPENCRE_BASE + encodeURIComponent(id.trim().replace(/^CRE:/i, ''))
}

/** isHttpUrl reports whether `value` is an absolute http or https URL (the only ones linked). */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value.trim())
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}

/** OpenCreProblem names what is wrong with a list of OpenCRE ids. */
export type OpenCreProblem = 'invalid' | 'duplicate' | 'tooMany'

/** openCreProblem checks the ids loosely: each 1–64 characters without spaces, no repeats, at most 50. */
export function openCreProblem(ids: readonly string[]): { problem: OpenCreProblem; id: string } | null {
  if (ids.length > MAX_OPEN_CRE) return { problem: 'tooMany', id: '' }
  const seen = new Set<string>()
  for (const id of ids) {
    if (id === '' || [...id].length > MAX_OPEN_CRE_LENGTH || /\s/.test(id)) return { problem: 'invalid', id }
    if (seen.has(id)) return { problem: 'duplicate', id }
    seen.add(id)
  }
  return null
}

/** UrlProblem names what is wrong with a reference's URL. */
export type UrlProblem = 'required' | 'invalid'

/**
 * urlProblem checks a reference's URL: present, and http or https — unless the requirement
 * already had exactly this URL (an import may bring others; keeping them is not refused).
 */
export function urlProblem(url: string, existing: ReadonlySet<string>): UrlProblem | null {
  const trimmed = url.trim()
  if (trimmed === '') return 'required'
  return isHttpUrl(trimmed) || existing.has(trimmed) ? null : 'invalid'
}

/** ReferenceRow is one external reference as the form edits it; `key` keeps rows apart. */
export interface ReferenceRow {
  key: number
  type: string
  url: string
  comment: string
}

/** DetailForm is what the drawer's form edits. */
export interface DetailForm {
  name: string
  description: string
  openCre: string[]
  references: ReferenceRow[]
}

let nextKey = 0

/** referenceRow makes a form row, empty or from a reference. */
export function referenceRow(reference?: ExternalReference): ReferenceRow {
  return { key: ++nextKey, type: reference?.type ?? 'website', url: reference?.url ?? '', comment: reference?.comment ?? '' }
}

/** detailFormOf fills the form from a requirement. */
export function detailFormOf(requirement: Requirement): DetailForm {
  return {
    name: requirement.name,
    description: requirement.description,
    openCre: [...(requirement.openCre ?? [])],
    references: (requirement.externalReferences ?? []).map((reference) => referenceRow(reference)),
  }
}

function referencesOf(rows: readonly ReferenceRow[]): ExternalReference[] {
  return rows.map(({ type, url, comment }) => {
    const reference: ExternalReference = { type: type.trim(), url: url.trim() }
    if (comment.trim() !== '') reference.comment = comment.trim()
    return reference
  })
}

function sameReferences(a: readonly ExternalReference[], b: readonly ExternalReference[]): boolean {
  return a.length === b.length && a.every((r, i) => r.type === b[i]!.type && r.url === b[i]!.url && (r.comment ?? '') === (b[i]!.comment ?? ''))
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i])
}

/**
 * detailUpdate is the PATCH body for what changed between `base` and the form, with
 * base's version; null when nothing changed.
 */
export function detailUpdate(base: Requirement, form: DetailForm): RequirementFields | null {
  const update: RequirementFields = { version: base.version }
  const name = form.name.trim()
  if (name !== base.name) update.name = name
  if (form.description !== base.description) update.description = form.description
  const openCre = form.openCre.map((id) => id.trim())
  if (!sameList(openCre, base.openCre ?? [])) update.openCre = openCre
  const references = referencesOf(form.references)
  if (!sameReferences(references, base.externalReferences ?? [])) update.externalReferences = references
  return Object.keys(update).length > 1 ? update : null
}

/** referenceField is how the server names a row's field, e.g. externalReferences[2].url. */
export function referenceField(index: number, part: 'type' | 'url' | 'comment'): string {
  return `externalReferences[${index}].${part}`
}

/** DETAIL_FIELDS are the fields a 400 answer's details may name, rows included. */
export const DETAIL_FIELDS: readonly string[] = [
  'name',
  'description',
  'openCre',
  'externalReferences',
  ...Array.from({ length: MAX_REFERENCES }, (_, i) => (['type', 'url', 'comment'] as const).map((part) => referenceField(i, part))).flat(),
]

/** DETAIL_ALIASES sends the server's per-id OpenCRE errors (openCre[3]) to the one OpenCRE field. */
export const DETAIL_ALIASES: Record<string, string> = Object.fromEntries(
  Array.from({ length: MAX_OPEN_CRE }, (_, i) => [`openCre[${i}]`, 'openCre']),
)
