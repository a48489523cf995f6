// Windowing for a list of rows of one fixed height: only the rows in view (and a few
// either side) are rendered; two spacers stand in for the rest, so a workspace of
// hundreds of requirements renders a few dozen rows.

/** RowWindow is the slice of rows to render, [start, end), and the heights of the spacers around it. */
export interface RowWindow {
  start: number
  end: number
  before: number
  after: number
}

/** rowWindow returns the rows a viewport at `scrollTop` of `height` shows, plus `overscan` rows each side. */
export function rowWindow(count: number, rowHeight: number, scrollTop: number, height: number, overscan: number): RowWindow {
  if (count <= 0 || rowHeight <= 0) return { start: 0, end: 0, before: 0, after: 0 }
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight)
  const last = Math.ceil((Math.max(0, scrollTop) + Math.max(0, height)) / rowHeight)
  const start = Math.max(0, Math.min(count - 1, first - overscan))
  const end = Math.min(count, Math.max(start + 1, last + overscan))
  return { start, end, before: start * rowHeight, after: (count - end) * rowHeight }
}

/** scrollToShow returns the scrollTop that brings row `index` fully into view, moving as little as possible. */
export function scrollToShow(index: number, rowHeight: number, scrollTop: number, height: number): number {
  const top = index * rowHeight
  const bottom = top + rowHeight
  if (top < scrollTop) return top
  if (bottom > scrollTop + height) return Math.max(0, bottom - height)
  return scrollTop
}
