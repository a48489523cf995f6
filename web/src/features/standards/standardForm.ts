import type { NewStandard, StandardUpdate } from './api'
import type { Standard } from './types'

// The values of the dialog that authors a standard or edits its metadata, and the
// request bodies built from them.

/** StandardFields are the dialog's values. */
export interface StandardFields {
  identifier: string
  standardVersion: string
  name: string
  owner: string
  description: string
  tagIds: string[]
}

/** STANDARD_FIELDS are the fields the server may name in a validation error. */
export const STANDARD_FIELDS = ['identifier', 'standardVersion', 'name', 'owner', 'description', 'tagIds'] as const

/** emptyFields are the values of a new standard. */
export function emptyFields(): StandardFields {
  return { identifier: '', standardVersion: '', name: '', owner: '', description: '', tagIds: [] }
}

/** fieldsOf fills the dialog from a standard. */
export function fieldsOf(standard: Standard): StandardFields {
  return {
    identifier: standard.identifier,
    standardVersion: standard.standardVersion,
    name: standard.name,
    owner: standard.owner,
    description: standard.description,
    tagIds: (standard.tags ?? []).map((tag) => tag.id),
  }
}

/** newStandard builds the create body: texts trimmed (the description as typed), empty optional ones left out. */
export function newStandard(fields: StandardFields): NewStandard {
  const body: NewStandard = {
    identifier: fields.identifier.trim(),
    standardVersion: fields.standardVersion.trim(),
    name: fields.name.trim(),
  }
  const owner = fields.owner.trim()
  if (owner !== '') body.owner = owner
  if (fields.description.trim() !== '') body.description = fields.description
  if (fields.tagIds.length > 0) body.tagIds = [...fields.tagIds]
  return body
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a)
  return a.length === b.length && b.every((value) => set.has(value))
}

/**
 * standardUpdate builds the PATCH body: the version read and only what changed, so a save
 * never overwrites what it did not touch. Null when nothing changed.
 */
export function standardUpdate(standard: Standard, fields: StandardFields): StandardUpdate | null {
  const update: StandardUpdate = { version: standard.version }
  const identifier = fields.identifier.trim()
  const standardVersion = fields.standardVersion.trim()
  const name = fields.name.trim()
  const owner = fields.owner.trim()
  if (identifier !== standard.identifier) update.identifier = identifier
  if (standardVersion !== standard.standardVersion) update.standardVersion = standardVersion
  if (name !== standard.name) update.name = name
  if (owner !== standard.owner) update.owner = owner
  if (fields.description !== standard.description) update.description = fields.description
  const tagIds = (standard.tags ?? []).map((tag) => tag.id)
  if (!sameSet(fields.tagIds, tagIds)) update.tagIds = [...fields.tagIds]
  return Object.keys(update).length === 1 ? null : update
}
