import { describe, expect, it } from 'vitest'
import { aRequirement } from './fixtures'
import {
  buildRows,
  emptyRequirementFilter,
  filterRequirements,
  treeKey,
  visibleRows,
  type TreeRow,
} from './requirementTree'
import type { AssessmentStandard } from './types'

const asvs: AssessmentStandard = { id: 'st_asvs', name: 'OWASP ASVS', standardVersion: '5.0.0', levelName: 'L1', conformanceScore: null }
const v2 = [{ id: 'rq_v2', identifier: 'V2', name: 'Validation' }]

function shape(rows: TreeRow[]): string[] {
  return rows.map((row) => `${'  '.repeat(row.depth)}${row.kind === 'group' ? `[${row.name}]` : row.id}`)
}

describe('buildRows', () => {
  const requirements = [
    aRequirement('a', { result: 'yes' }),
    aRequirement('b'),
    aRequirement('c', { ancestors: v2 }),
    aRequirement('d', { standardId: 'st_other', ancestors: [] }),
  ]

  it('groups requirements by standard and their ancestors, opening a group only when the path changes', () => {
    expect(shape(buildRows(requirements, [asvs]))).toEqual([
      '[OWASP ASVS]',
      '  [Encoding]',
      '    [Architecture]',
      '      a',
      '      b',
      '  [Validation]',
      '    c',
      '[st_other]',
      '  d',
    ])
  })

  it('counts the requirements and answers below each group and links rows to their parents', () => {
    const rows = buildRows(requirements, [asvs])
    const standard = rows[0]!
    expect(standard).toMatchObject({ kind: 'group', standard: true, total: 3, answered: 1, identifier: '5.0.0 · L1', parentId: null })
    expect(rows[2]).toMatchObject({ name: 'Architecture', total: 2, answered: 1, parentId: rows[1]!.id })
    expect(rows[3]).toMatchObject({ kind: 'requirement', parentId: rows[2]!.id, depth: 3 })
  })

  it('keeps same-named ancestors of different standards apart', () => {
    const rows = buildRows([aRequirement('a'), aRequirement('b', { standardId: 'st_2' })])
    expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length)
  })

  it('handles 350 requirements quickly', () => {
    const many = Array.from({ length: 350 }, (_, i) =>
      aRequirement(`r${i}`, { ancestors: [{ id: `c${Math.floor(i / 50)}`, identifier: `V${i}`, name: 'C' }] }),
    )
    const started = performance.now()
    const rows = buildRows(many, [asvs])
    expect(rows).toHaveLength(350 + 7 + 1)
    expect(performance.now() - started).toBeLessThan(50)
  })
})

describe('visibleRows', () => {
  it('hides everything below a collapsed group', () => {
    const rows = buildRows([aRequirement('a'), aRequirement('c', { ancestors: v2 })], [asvs])
    const encoding = rows[1]!.id
    expect(shape(visibleRows(rows, new Set([encoding])))).toEqual(['[OWASP ASVS]', '  [Encoding]', '  [Validation]', '    c'])
    expect(shape(visibleRows(rows, new Set([rows[0]!.id])))).toEqual(['[OWASP ASVS]'])
  })
})

describe('filterRequirements', () => {
  const list = [
    aRequirement('a', { result: 'yes', evidenceCount: 2, assigneeId: 'us_1' }),
    aRequirement('b', { assigneeId: 'us_1', description: 'Check TLS settings' }),
    aRequirement('c', { result: 'no' }),
  ]
  const ids = (filter: Partial<ReturnType<typeof emptyRequirementFilter>>) =>
    filterRequirements(list, { ...emptyRequirementFilter(), ...filter }).map((r) => r.id)

  it('keeps unanswered, mine, without evidence, one result, or a text match', () => {
    expect(ids({})).toEqual(['a', 'b', 'c'])
    expect(ids({ unanswered: true })).toEqual(['b'])
    expect(ids({ mineId: 'us_1' })).toEqual(['a', 'b'])
    expect(ids({ noEvidence: true })).toEqual(['b', 'c'])
    expect(ids({ result: 'no' })).toEqual(['c'])
    expect(ids({ q: 'tls' })).toEqual(['b'])
    expect(ids({ mineId: 'us_1', noEvidence: true })).toEqual(['b'])
  })
})

describe('treeKey', () => {
  const rows = buildRows([aRequirement('a'), aRequirement('b')], [asvs])
  // rows: 0 standard, 1 Encoding, 2 Architecture, 3 a, 4 b
  const none = new Set<string>()

  it('moves with the arrows, Home, End and the page keys, stopping at the ends', () => {
    expect(treeKey(rows, 3, 'ArrowDown', none)).toEqual({ type: 'focus', index: 4 })
    expect(treeKey(rows, 4, 'ArrowDown', none)).toEqual({ type: 'focus', index: 4 })
    expect(treeKey(rows, 0, 'ArrowUp', none)).toEqual({ type: 'focus', index: 0 })
    expect(treeKey(rows, 2, 'End', none)).toEqual({ type: 'focus', index: 4 })
    expect(treeKey(rows, 4, 'Home', none)).toEqual({ type: 'focus', index: 0 })
    expect(treeKey(rows, 0, 'PageDown', none, 3)).toEqual({ type: 'focus', index: 3 })
    expect(treeKey(rows, 4, 'PageUp', none, 3)).toEqual({ type: 'focus', index: 1 })
  })

  it('edits a requirement on Enter and toggles a group', () => {
    expect(treeKey(rows, 3, 'Enter', none)).toEqual({ type: 'edit', id: 'a' })
    expect(treeKey(rows, 1, 'Enter', none)).toEqual({ type: 'toggle', id: rows[1]!.id })
  })

  it('closes and opens groups with ← and →, and goes to the parent with ←', () => {
    const group = rows[2]!.id
    expect(treeKey(rows, 2, 'ArrowLeft', none)).toEqual({ type: 'toggle', id: group })
    expect(treeKey(rows, 2, 'ArrowLeft', new Set([group]))).toEqual({ type: 'focus', index: 1 })
    expect(treeKey(rows, 2, 'ArrowRight', new Set([group]))).toEqual({ type: 'toggle', id: group })
    expect(treeKey(rows, 2, 'ArrowRight', none)).toEqual({ type: 'focus', index: 3 })
    expect(treeKey(rows, 4, 'ArrowLeft', none)).toEqual({ type: 'focus', index: 2 })
    expect(treeKey(rows, 4, 'x', none)).toBeNull()
  })
})
