import type { LocationQuery, LocationQueryRaw } from 'vue-router'
import { queryChoice, queryText } from '../../app/queryFilters'
import { RESULTS, type AssessmentRequirement, type AssessmentStandard, type Result } from './types'

// The workspace shows the requirements of an assessment as a tree: one branch per
// standard, then the chapters and sections each requirement sits in (its `ancestors`),
// then the requirements themselves, which are the only rows that carry an answer. The
// server lists requirements in tree order, so one pass builds the rows: a group row is
// emitted whenever a requirement's path differs from the previous one's.

/** GroupRow is a standard or a chapter/section above requirements. */
export interface GroupRow {
  kind: 'group'
  /** id is unique among the rows: the standard id, or the path of ancestor ids below it. */
  id: string
  /** parentId is the id of the group above, null for a standard. */
  parentId: string | null
  depth: number
  identifier: string
  name: string
  /** standard is true for a standard's row. */
  standard: boolean
  /** Counts of the requirements below, for the row's summary. */
  total: number
  answered: number
}

/** RequirementRow is one requirement to answer. */
export interface RequirementRow {
  kind: 'requirement'
  id: string
  parentId: string | null
  depth: number
  requirement: AssessmentRequirement
}

/** TreeRow is a row of the requirement tree. */
export type TreeRow = GroupRow | RequirementRow

/**
 * buildRows turns the requirements (tree order) into rows. `standards` names the standards
 * (in the assessment's order); a requirement of a standard not listed still gets a branch,
 * named by its id.
 */
export function buildRows(requirements: readonly AssessmentRequirement[], standards: readonly AssessmentStandard[] = []): TreeRow[] {
  const names = new Map(standards.map((standard) => [standard.id, standard]))
  const rows: TreeRow[] = []
  const groups = new Map<string, GroupRow>()
  let path: string[] = []
  for (const requirement of requirements) {
    const standardId = requirement.standardId
    const ancestors = requirement.ancestors ?? []
    const ids = [standardId, ...ancestors.map((_, i) => `${standardId}/${ancestors.slice(0, i + 1).map((x) => x.id).join('/')}`)]
    // Reuse the groups the previous requirement opened as long as the paths agree.
    let same = 0
    while (same < ids.length && same < path.length && ids[same] === path[same]) same++
    for (let level = same; level < ids.length; level++) {
      const id = ids[level]!
      if (groups.has(id)) continue // a group met again after a gap keeps its first row
      const standard = level === 0
      const info = names.get(standardId)
      const ancestor = standard ? undefined : ancestors[level - 1]!
      const group: GroupRow = {
        kind: 'group',
        id,
        parentId: level === 0 ? null : ids[level - 1]!,
        depth: level,
        identifier: standard ? (info?.standardVersion ?? '') : ancestor!.identifier,
        name: standard ? (info ? info.name : standardId) : ancestor!.name,
        standard,
        total: 0,
        answered: 0,
      }
      if (standard && info?.levelName) group.identifier = `${info.standardVersion} · ${info.levelName}`
      groups.set(id, group)
      rows.push(group)
    }
    path = ids
    const parentId = ids[ids.length - 1]!
    for (const id of ids) {
      const group = groups.get(id)!
      group.total++
      if (requirement.result !== null) group.answered++
    }
    rows.push({ kind: 'requirement', id: requirement.id, parentId, depth: ids.length, requirement })
  }
  return rows
}

/** visibleRows leaves out the rows below a collapsed group. */
export function visibleRows(rows: readonly TreeRow[], collapsed: ReadonlySet<string>): TreeRow[] {
  if (collapsed.size === 0) return [...rows]
  const out: TreeRow[] = []
  let hiddenBelowDepth = Infinity
  for (const row of rows) {
    if (row.depth > hiddenBelowDepth) continue
    hiddenBelowDepth = Infinity
    out.push(row)
    if (row.kind === 'group' && collapsed.has(row.id)) hiddenBelowDepth = row.depth
  }
  return out
}

/** RequirementFilter is what the workspace's quick filters ask for. */
export interface RequirementFilter {
  /** unanswered keeps requirements without a result. */
  unanswered: boolean
  /** mineId keeps requirements assigned to this user ('' for any). */
  mineId: string
  /** noEvidence keeps requirements without linked evidence. */
  noEvidence: boolean
  /** result keeps one result ('' for any). */
  result: Result | ''
  /** q matches identifier, name or description (case-insensitive). */
  q: string
}

/** emptyRequirementFilter is the filter that keeps everything. */
export function emptyRequirementFilter(): RequirementFilter {
  return { unanswered: false, mineId: '', noEvidence: false, result: '', q: '' }
}

/** RequirementFilterState is the workspace's filter as the URL keeps it: "mine" as a flag, not a user id. */
export type RequirementFilterState = Omit<RequirementFilter, 'mineId'> & { mine: boolean }

/**
 * requirementFilterFromQuery reads the workspace's filters from the URL's query
 * (?q=…&unanswered=1&mine=1&noEvidence=1&result=no), ignoring what it does not know,
 * so a reload, a shared link or Back shows the same requirements.
 */
export function requirementFilterFromQuery(query: LocationQuery): RequirementFilterState {
  return {
    q: queryText(query.q),
    unanswered: queryText(query.unanswered) === '1',
    mine: queryText(query.mine) === '1',
    noEvidence: queryText(query.noEvidence) === '1',
    result: queryChoice(queryText(query.result), RESULTS, ''),
  }
}

/** requirementFilterQuery is the query of a filter state; a filter that keeps everything is left out (undefined). */
export function requirementFilterQuery(state: RequirementFilterState): LocationQueryRaw {
  return {
    q: state.q !== '' ? state.q : undefined,
    unanswered: state.unanswered ? '1' : undefined,
    mine: state.mine ? '1' : undefined,
    noEvidence: state.noEvidence ? '1' : undefined,
    result: state.result !== '' ? state.result : undefined,
  }
}

/** isFiltering reports whether the filter narrows the list. */
export function isFiltering(filter: RequirementFilter): boolean {
  return filter.unanswered || filter.mineId !== '' || filter.noEvidence || filter.result !== '' || filter.q.trim() !== ''
}

/** matchesFilter reports whether a requirement passes the filter. */
export function matchesFilter(requirement: AssessmentRequirement, filter: RequirementFilter): boolean {
  if (filter.unanswered && requirement.result !== null) return false
  if (filter.mineId !== '' && requirement.assigneeId !== filter.mineId) return false
  if (filter.noEvidence && requirement.evidenceCount > 0) return false
  if (filter.result !== '' && requirement.result !== filter.result) return false
  const q = filter.q.trim().toLocaleLowerCase()
  if (q !== '') {
    const text = `${requirement.identifier}\n${requirement.name}\n${requirement.description}`.toLocaleLowerCase()
    if (!text.includes(q)) return false
  }
  return true
}

/** filterRequirements keeps the requirements that pass the filter, in order. */
export function filterRequirements(requirements: readonly AssessmentRequirement[], filter: RequirementFilter): AssessmentRequirement[] {
  return isFiltering(filter) ? requirements.filter((requirement) => matchesFilter(requirement, filter)) : [...requirements]
}

/** TreeKeyAction is what a key press on a row asks for. */
export type TreeKeyAction =
  | { type: 'focus'; index: number }
  | { type: 'toggle'; id: string }
  | { type: 'edit'; id: string }
  | null

/**
 * treeKey maps a key press on the row at `index` of the visible rows to an action, after
 * the WAI-ARIA tree pattern: ↑/↓ move, Home/End jump, PageUp/PageDown move by `page`
 * rows, → opens a closed group or enters an open one, ← closes an open group or goes to
 * the parent, Enter (or F2) edits a requirement and toggles a group.
 */
export function treeKey(rows: readonly TreeRow[], index: number, key: string, collapsed: ReadonlySet<string>, page = 10): TreeKeyAction {
  const row = rows[index]
  if (row === undefined) return rows.length > 0 ? { type: 'focus', index: 0 } : null
  const last = rows.length - 1
  const clamp = (i: number) => Math.max(0, Math.min(last, i))
  switch (key) {
    case 'ArrowDown':
      return { type: 'focus', index: clamp(index + 1) }
    case 'ArrowUp':
      return { type: 'focus', index: clamp(index - 1) }
    case 'Home':
      return { type: 'focus', index: 0 }
    case 'End':
      return { type: 'focus', index: last }
    case 'PageDown':
      return { type: 'focus', index: clamp(index + page) }
    case 'PageUp':
      return { type: 'focus', index: clamp(index - page) }
    case 'ArrowRight':
      if (row.kind !== 'group') return null
      if (collapsed.has(row.id)) return { type: 'toggle', id: row.id }
      return rows[index + 1]?.parentId === row.id ? { type: 'focus', index: index + 1 } : null
    case 'ArrowLeft': {
      if (row.kind === 'group' && !collapsed.has(row.id)) return { type: 'toggle', id: row.id }
      if (row.parentId === null) return null
      const parent = rows.findIndex((candidate) => candidate.id === row.parentId)
      return parent >= 0 ? { type: 'focus', index: parent } : null
    }
    case 'Enter':
    case 'F2':
      return row.kind === 'requirement' ? { type: 'edit', id: row.id } : { type: 'toggle', id: row.id }
    default:
      return null
  }
}
