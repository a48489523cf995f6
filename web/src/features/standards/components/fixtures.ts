// Test fixtures: requirements and levels the component tests build trees from.
import type { Level, TreeRequirement } from '../types'

/** requirement builds a requirement; `levels` lists the ids of the levels it is in. */
export function requirement(id: string, parentId: string | null, identifier = id, levels: string[] = []): TreeRequirement {
  return {
    id,
    standardId: 'st_1',
    ...(parentId ? { parentId } : {}),
    identifier,
    name: `Name of ${identifier}`,
    description: `Description of ${identifier}`,
    openCre: [],
    externalReferences: [],
    properties: [],
    position: 0,
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
    levels,
    version: 1,
    depth: 0,
    childCount: 0,
  }
}

/**
 * smallTree is
 *   a (V1)         b (V2)        c (V3)
 *     a1 (V1.1)      b1 (V2.1)
 *       a1x (V1.1.1)
 *     a2 (V1.2)
 * in depth-first order.
 */
export function smallTree(): TreeRequirement[] {
  return [
    requirement('a', null, 'V1', ['l1']),
    requirement('a1', 'a', 'V1.1', ['l1']),
    requirement('a1x', 'a1', 'V1.1.1'),
    requirement('a2', 'a', 'V1.2'),
    requirement('b', null, 'V2'),
    requirement('b1', 'b', 'V2.1', ['l1']),
    requirement('c', null, 'V3'),
  ]
}

/** bigTree builds `roots` × `children` × `grandchildren` requirements plus their parents, depth-first. */
export function bigTree(roots = 10, children = 10, grandchildren = 9): TreeRequirement[] {
  const out: TreeRequirement[] = []
  for (let r = 1; r <= roots; r++) {
    out.push(requirement(`r${r}`, null, `V${r}`))
    for (let c = 1; c <= children; c++) {
      out.push(requirement(`r${r}c${c}`, `r${r}`, `V${r}.${c}`))
      for (let g = 1; g <= grandchildren; g++) out.push(requirement(`r${r}c${c}g${g}`, `r${r}c${c}`, `V${r}.${c}.${g}`))
    }
  }
  return out
}

function level(id: string, identifier: string, title: string, description: string, requirementCount: number): Level {
  const at = '2026-01-01T00:00:00Z'
  return { id, standardId: 'st_1', identifier, title, description, position: 0, requirementCount, version: 1, createdAt: at, updatedAt: at }
}

/** levels are two levels of the small tree. */
export const levels: Level[] = [
  level('l1', 'L1', 'Opportunistic', 'The first level', 3),
  level('l2', 'L2', 'Standard', '', 0),
]
