// The requirement tree as the editor works on it: built once per list from parent ids,
// with the visible rows, drop targets and keyboard moves computed here, without the DOM,
// so they can be tested on their own.
import type { Requirement, RequirementMove } from '../types'

/** TreeNode is one requirement with its place in the tree. */
export interface TreeNode {
  requirement: Requirement
  parentId: string | null
  depth: number
  /** Ids of the children, in order. */
  children: string[]
  /** Index among its siblings. */
  index: number
}

/** TreeModel is the whole tree: nodes by id, top-level ids, and the depth-first order. */
export interface TreeModel {
  nodes: Map<string, TreeNode>
  roots: string[]
  order: string[]
}

/**
 * buildTree builds the tree from a list of requirements. Siblings keep the order of the
 * list (the tree answer lists them in order); a requirement whose parent is not in the
 * list is shown at the top level rather than lost.
 */
export function buildTree(requirements: readonly Requirement[]): TreeModel {
  const nodes = new Map<string, TreeNode>()
  for (const requirement of requirements) {
    nodes.set(requirement.id, { requirement, parentId: null, depth: 0, children: [], index: 0 })
  }
  const roots: string[] = []
  for (const requirement of requirements) {
    const node = nodes.get(requirement.id)
    if (!node || node.requirement !== requirement) continue // a duplicate id: the first wins
    const parent = requirement.parentId ? nodes.get(requirement.parentId) : undefined
    if (parent && requirement.parentId !== requirement.id) {
      node.parentId = requirement.parentId ?? null
      node.index = parent.children.length
      parent.children.push(requirement.id)
    } else {
      node.index = roots.length
      roots.push(requirement.id)
    }
  }
  const order: string[] = []
  const stack = [...roots].reverse().map((id) => ({ id, depth: 0 }))
  while (stack.length > 0) {
    const { id, depth } = stack.pop()!
    const node = nodes.get(id)!
    node.depth = depth
    order.push(id)
    for (let i = node.children.length - 1; i >= 0; i--) stack.push({ id: node.children[i]!, depth: depth + 1 })
  }
  return { nodes, roots, order }
}

/** siblingsOf lists the ids of a node's siblings, the node included. */
export function siblingsOf(model: TreeModel, id: string): string[] {
  const node = model.nodes.get(id)
  if (!node) return []
  return node.parentId === null ? model.roots : (model.nodes.get(node.parentId)?.children ?? [])
}

/** isInSubtree tells whether `id` is `ancestorId` or lies below it. */
export function isInSubtree(model: TreeModel, ancestorId: string, id: string): boolean {
  let current: string | null = id
  while (current !== null) {
    if (current === ancestorId) return true
    current = model.nodes.get(current)?.parentId ?? null
  }
  return false
}

/** descendantCount counts the requirements below `id`. */
export function descendantCount(model: TreeModel, id: string): number {
  const node = model.nodes.get(id)
  if (!node) return 0
  let count = 0
  for (const child of node.children) count += 1 + descendantCount(model, child)
  return count
}

/** ancestorsOf lists the ids above `id`, nearest first. */
export function ancestorsOf(model: TreeModel, id: string): string[] {
  const out: string[] = []
  let current = model.nodes.get(id)?.parentId ?? null
  while (current !== null && !out.includes(current)) {
    out.push(current)
    current = model.nodes.get(current)?.parentId ?? null
  }
  return out
}

/**
 * keepWithAncestors returns the ids of the requirements `matches` accepts and of their
 * ancestors, which a filtered tree shows to keep each match in its place.
 */
export function keepWithAncestors(model: TreeModel, matches: (requirement: Requirement) => boolean): Set<string> {
  const keep = new Set<string>()
  for (const id of model.order) {
    const node = model.nodes.get(id)!
    if (!matches(node.requirement)) continue
    keep.add(id)
    for (const ancestor of ancestorsOf(model, id)) {
      if (keep.has(ancestor)) break
      keep.add(ancestor)
    }
  }
  return keep
}

/**
 * visibleIds lists, in depth-first order, the requirements a reader sees: those not below
 * a collapsed one, and, when `keep` is given, only those in it.
 */
export function visibleIds(model: TreeModel, collapsed: ReadonlySet<string>, keep: ReadonlySet<string> | null): string[] {
  const out: string[] = []
  let hiddenBelow = Infinity // depth of a collapsed node whose subtree is being skipped
  for (const id of model.order) {
    const node = model.nodes.get(id)!
    if (node.depth > hiddenBelow) continue
    hiddenBelow = Infinity
    if (keep && !keep.has(id)) {
      hiddenBelow = node.depth // nothing below a dropped node is kept either
      continue
    }
    out.push(id)
    if (collapsed.has(id) && node.children.length > 0) hiddenBelow = node.depth
  }
  return out
}

/** DropZone is where on a row a dragged requirement lands. */
export type DropZone = 'before' | 'inside' | 'after'

/** dropZone picks the zone from the pointer's offset into a row: top quarter, middle, bottom quarter. */
export function dropZone(offsetY: number, height: number): DropZone {
  if (offsetY < height / 4) return 'before'
  if (offsetY > (height * 3) / 4) return 'after'
  return 'inside'
}

/** placeAmong returns the move that puts `id` under `parentId` before `beforeId` (null: last). */
function placeAmong(model: TreeModel, id: string, parentId: string | null, beforeId: string | null): RequirementMove | null {
  const siblings = (parentId === null ? model.roots : (model.nodes.get(parentId)?.children ?? [])).filter((s) => s !== id)
  const position = beforeId === null ? siblings.length : siblings.indexOf(beforeId)
  if (position < 0) return null
  const node = model.nodes.get(id)
  if (!node) return null
  if (node.parentId === parentId && node.index === position) return null // already there
  return { id, parentId, position }
}

/**
 * dropMove returns the move that dropping `draggedId` on `targetId` in `zone` asks for, or
 * null when the drop is refused (onto itself or into its own subtree) or changes nothing.
 * Dropping after an expanded requirement with children makes it the first child, where
 * the drop line shows.
 */
export function dropMove(model: TreeModel, draggedId: string, targetId: string, zone: DropZone, targetExpanded: boolean): RequirementMove | null {
  const target = model.nodes.get(targetId)
  if (!target || !model.nodes.has(draggedId) || isInSubtree(model, draggedId, targetId)) return null
  if (zone === 'inside') return placeAmong(model, draggedId, targetId, null)
  if (zone === 'after' && targetExpanded && target.children.length > 0) {
    return placeAmong(model, draggedId, targetId, target.children[0] ?? null)
  }
  const siblings = siblingsOf(model, targetId)
  const beforeId = zone === 'before' ? targetId : (siblings[target.index + 1] ?? null)
  return placeAmong(model, draggedId, target.parentId, beforeId === draggedId ? (siblings[target.index + 2] ?? null) : beforeId)
}

/** KeyboardMove is what Alt+arrow does to a requirement. */
export type KeyboardMove = 'up' | 'down' | 'indent' | 'outdent'

/**
 * keyboardMove returns the move Alt+↑ (up among siblings), Alt+↓ (down), Alt+→ (indent:
 * last child of the previous sibling) or Alt+← (outdent: next sibling of the parent) asks
 * for, or null when there is nowhere to go.
 */
export function keyboardMove(model: TreeModel, id: string, direction: KeyboardMove): RequirementMove | null {
  const node = model.nodes.get(id)
  if (!node) return null
  const siblings = siblingsOf(model, id)
  switch (direction) {
    case 'up':
      return node.index > 0 ? { id, parentId: node.parentId, position: node.index - 1 } : null
    case 'down':
      return node.index < siblings.length - 1 ? { id, parentId: node.parentId, position: node.index + 1 } : null
    case 'indent': {
      const previous = siblings[node.index - 1]
      if (previous === undefined) return null
      return { id, parentId: previous, position: model.nodes.get(previous)?.children.length ?? 0 }
    }
    case 'outdent': {
      if (node.parentId === null) return null
      const parent = model.nodes.get(node.parentId)
      if (!parent) return null
      return { id, parentId: parent.parentId, position: parent.index + 1 }
    }
  }
}
