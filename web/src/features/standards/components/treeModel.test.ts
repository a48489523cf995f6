import { describe, expect, it } from 'vitest'
import { bigTree, requirement, smallTree } from './fixtures'
import { buildTree, descendantCount, dropMove, dropZone, keepWithAncestors, keyboardMove, visibleIds } from './treeModel'
import { indexAt, rowTop, rowWindow, scrollToShow, totalHeight, type RowLayout } from './virtualWindow'

describe('buildTree', () => {
  it('links parents and children in list order and computes depths', () => {
    const tree = buildTree(smallTree())
    expect(tree.roots).toEqual(['a', 'b', 'c'])
    expect(tree.nodes.get('a')!.children).toEqual(['a1', 'a2'])
    expect(tree.nodes.get('a1x')!.depth).toBe(2)
    expect(tree.nodes.get('a2')!.index).toBe(1)
    expect(tree.order).toEqual(['a', 'a1', 'a1x', 'a2', 'b', 'b1', 'c'])
    expect(descendantCount(tree, 'a')).toBe(3)
  })

  it('shows a requirement whose parent is missing at the top level', () => {
    const tree = buildTree([requirement('x', 'gone'), requirement('y', null)])
    expect(tree.roots).toEqual(['x', 'y'])
  })
})

describe('visibleIds', () => {
  it('hides what is below a collapsed requirement', () => {
    const tree = buildTree(smallTree())
    expect(visibleIds(tree, new Set(['a1', 'b']), null)).toEqual(['a', 'a1', 'a2', 'b', 'c'])
    expect(visibleIds(tree, new Set(['a']), null)).toEqual(['a', 'b', 'b1', 'c'])
  })

  it('keeps matches with their ancestors when filtering', () => {
    const tree = buildTree(smallTree())
    const keep = keepWithAncestors(tree, (r) => r.identifier === 'V1.1.1' || r.identifier === 'V3')
    expect(visibleIds(tree, new Set(), keep)).toEqual(['a', 'a1', 'a1x', 'c'])
  })
})

describe('dropMove', () => {
  const tree = buildTree(smallTree())

  it('places before, after and inside a row', () => {
    expect(dropMove(tree, 'c', 'a2', 'before', true)).toEqual({ id: 'c', parentId: 'a', position: 1 })
    expect(dropMove(tree, 'c', 'a2', 'after', true)).toEqual({ id: 'c', parentId: 'a', position: 2 })
    expect(dropMove(tree, 'c', 'a1', 'inside', true)).toEqual({ id: 'c', parentId: 'a1', position: 1 })
    expect(dropMove(tree, 'c', 'a', 'before', true)).toEqual({ id: 'c', parentId: null, position: 0 })
  })

  it('counts positions without the moved requirement among its old siblings', () => {
    expect(dropMove(tree, 'a', 'c', 'after', true)).toEqual({ id: 'a', parentId: null, position: 2 })
    expect(dropMove(tree, 'a', 'c', 'before', true)).toEqual({ id: 'a', parentId: null, position: 1 })
  })

  it('makes a drop after an expanded parent its first child', () => {
    expect(dropMove(tree, 'c', 'a', 'after', true)).toEqual({ id: 'c', parentId: 'a', position: 0 })
    expect(dropMove(tree, 'c', 'a', 'after', false)).toEqual({ id: 'c', parentId: null, position: 1 })
  })

  it('refuses a drop onto itself or into its own subtree, and drops that change nothing', () => {
    expect(dropMove(tree, 'a', 'a', 'inside', true)).toBeNull()
    expect(dropMove(tree, 'a', 'a1x', 'inside', true)).toBeNull()
    expect(dropMove(tree, 'a', 'a1', 'after', true)).toBeNull()
    expect(dropMove(tree, 'b', 'a', 'after', false)).toBeNull()
    expect(dropMove(tree, 'a2', 'a1', 'after', false)).toBeNull()
  })

  it('reads the zone from the pointer', () => {
    expect(dropZone(2, 36)).toBe('before')
    expect(dropZone(18, 36)).toBe('inside')
    expect(dropZone(34, 36)).toBe('after')
  })
})

describe('keyboardMove', () => {
  const tree = buildTree(smallTree())

  it('moves among siblings, indents and outdents', () => {
    expect(keyboardMove(tree, 'a2', 'up')).toEqual({ id: 'a2', parentId: 'a', position: 0 })
    expect(keyboardMove(tree, 'a1', 'down')).toEqual({ id: 'a1', parentId: 'a', position: 1 })
    expect(keyboardMove(tree, 'a2', 'indent')).toEqual({ id: 'a2', parentId: 'a1', position: 1 })
    expect(keyboardMove(tree, 'a1x', 'outdent')).toEqual({ id: 'a1x', parentId: 'a', position: 1 })
    expect(keyboardMove(tree, 'b1', 'outdent')).toEqual({ id: 'b1', parentId: null, position: 2 })
  })

  it('goes nowhere at the edges', () => {
    expect(keyboardMove(tree, 'a', 'up')).toBeNull()
    expect(keyboardMove(tree, 'c', 'down')).toBeNull()
    expect(keyboardMove(tree, 'a1', 'indent')).toBeNull()
    expect(keyboardMove(tree, 'a', 'outdent')).toBeNull()
  })
})

describe('virtual window', () => {
  const plain: RowLayout = { count: 1000, rowHeight: 36, tallIndex: -1, tallHeight: 168 }
  const editing: RowLayout = { ...plain, tallIndex: 10 }

  it('renders only the rows in view plus overscan, with spacers for the rest', () => {
    const win = rowWindow(plain, 3600, 360, 5)
    expect(win).toEqual({ start: 95, end: 116, before: 95 * 36, after: (1000 - 116) * 36 })
    expect(win.before + (win.end - win.start) * 36 + win.after).toBe(totalHeight(plain))
  })

  it('accounts for the taller row being edited', () => {
    expect(rowTop(editing, 11)).toBe(10 * 36 + 168)
    expect(indexAt(editing, 10 * 36 + 100)).toBe(10)
    expect(indexAt(editing, 10 * 36 + 168 + 1)).toBe(11)
    expect(totalHeight(editing)).toBe(999 * 36 + 168)
  })

  it('scrolls just enough to show a row', () => {
    expect(scrollToShow(plain, 50, 0, 360)).toBe(51 * 36 - 360)
    expect(scrollToShow(plain, 5, 720, 360)).toBe(180)
    expect(scrollToShow(plain, 22, 720, 360)).toBe(720)
  })

  it('handles a big tree in one pass', () => {
    const tree = buildTree(bigTree())
    expect(tree.order).toHaveLength(1010)
    expect(visibleIds(tree, new Set(tree.roots), null)).toHaveLength(10)
  })
})
