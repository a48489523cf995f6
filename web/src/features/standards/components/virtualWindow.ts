// Windowing arithmetic for a list of fixed-height rows in which at most one row (the one
// being edited) is taller. Only the rows of the window are rendered; two spacers stand
// in for the others, so a tree of thousands of requirements renders a few dozen rows.

/** RowLayout places `count` rows of `rowHeight`, row `tallIndex` (-1: none) being `tallHeight`. */
export interface RowLayout {
  count: number
  rowHeight: number
  tallIndex: number
  tallHeight: number
}

/** rowTop is the offset of row `i` from the top of the list. */
export function rowTop(layout: RowLayout, i: number): number {
  const extra = layout.tallIndex >= 0 && i > layout.tallIndex ? layout.tallHeight - layout.rowHeight : 0
  return i * layout.rowHeight + extra
}

/** rowHeightAt is the height of row `i`. */
export function rowHeightAt(layout: RowLayout, i: number): number {
  return i === layout.tallIndex ? layout.tallHeight : layout.rowHeight
}

/** totalHeight is the height of the whole list. */
export function totalHeight(layout: RowLayout): number {
  return rowTop(layout, layout.count)
}

/** indexAt is the row at offset `y` (clamped to the list). */
export function indexAt(layout: RowLayout, y: number): number {
  const { rowHeight, tallIndex, tallHeight, count } = layout
  let index: number
  if (tallIndex < 0 || y < tallIndex * rowHeight) index = Math.floor(y / rowHeight)
  else if (y < tallIndex * rowHeight + tallHeight) index = tallIndex
  else index = tallIndex + 1 + Math.floor((y - tallIndex * rowHeight - tallHeight) / rowHeight)
  return Math.max(0, Math.min(count - 1, index))
}

/** RowWindow is the slice of rows to render, [start, end), and the spacers around it. */
export interface RowWindow {
  start: number
  end: number
  before: number
  after: number
}

/** rowWindow returns the rows that a viewport at `scrollTop` of `height` shows, plus `overscan` on each side. */
export function rowWindow(layout: RowLayout, scrollTop: number, height: number, overscan: number): RowWindow {
  if (layout.count === 0) return { start: 0, end: 0, before: 0, after: 0 }
  const start = Math.max(0, indexAt(layout, scrollTop) - overscan)
  const end = Math.min(layout.count, indexAt(layout, scrollTop + height) + 1 + overscan)
  return { start, end, before: rowTop(layout, start), after: totalHeight(layout) - rowTop(layout, end) }
}

/** scrollToShow returns the scrollTop that brings row `i` fully into a viewport at `scrollTop` of `height`. */
export function scrollToShow(layout: RowLayout, i: number, scrollTop: number, height: number): number {
  const top = rowTop(layout, i)
  const bottom = top + rowHeightAt(layout, i)
  if (top < scrollTop) return top
  if (bottom > scrollTop + height) return Math.max(0, bottom - height)
  return scrollTop
}
