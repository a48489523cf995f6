// Windowing for a list of rows of known heights (each row's height is fixed by its kind
// and the layout): only the rows in view (and a few either side) are rendered; two
// spacers stand in for the rest, so a workspace of hundreds of requirements renders a
// few dozen rows.

/** RowWindow is the slice of rows to render, [start, end), and the heights of the spacers around it. */
export interface RowWindow {
  start: number
  end: number
  before: number
  after: number
}

/** rowOffsets returns where each row starts, then (one more entry) the height of the whole list. */
export function rowOffsets(heights: readonly number[]): number[] {
  const offsets = [0]
  for (const height of heights) offsets.push(offsets[offsets.length - 1]! + Math.max(0, height))
  return offsets
}

/** countBelow counts the offsets before position `limit` of `offsets` that are below `y` (they ascend). */
function countBelow(offsets: readonly number[], limit: number, y: number, orEqual: boolean): number {
  let low = 0
  let high = limit
  while (low < high) {
    const mid = (low + high) >> 1
    const value = offsets[mid]!
    if (value < y || (orEqual && value === y)) low = mid + 1
    else high = mid
  }
  return low
}

/** rowWindow returns the rows a viewport at `scrollTop` of `height` shows, plus `overscan` rows each side. */
export function rowWindow(offsets: readonly number[], scrollTop: number, height: number, overscan: number): RowWindow {
  const count = offsets.length - 1
  const total = offsets[count] ?? 0
  if (count <= 0 || total <= 0) return { start: 0, end: 0, before: 0, after: 0 }
  const top = Math.max(0, scrollTop)
  const first = countBelow(offsets, offsets.length, top, true) - 1
  const last = countBelow(offsets, count, top + Math.max(0, height), false)
  const start = Math.max(0, Math.min(count - 1, first - overscan))
  const end = Math.min(count, Math.max(start + 1, last + overscan))
  return { start, end, before: offsets[start]!, after: total - offsets[end]! }
}

/** scrollToShow returns the scrollTop that brings row `index` fully into view, moving as little as possible. */
export function scrollToShow(offsets: readonly number[], index: number, scrollTop: number, height: number): number {
  const top = offsets[index] ?? 0
  const bottom = offsets[index + 1] ?? top
  if (top < scrollTop) return top
  if (bottom > scrollTop + height) return Math.max(0, bottom - height)
  return scrollTop
}
