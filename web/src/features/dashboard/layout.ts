import type { components } from '../../api/schema'

// The dashboard's grid (docs/assessments.md, "Dashboard layout"): tiles placed on 12
// columns and rows of a fixed height. These are pure functions on a list of tiles — every
// edit (drag, resize, the keyboard's moves, add, remove) answers a new list, which
// is what Save sends. After each edit the tiles fall upwards as far as they can, so the
// grid never keeps holes (the server would accept them: the page does not make them).

/** Tile places one widget: columns x…x+w−1 and rows y…y+h−1. */
export type Tile = components['schemas']['DashboardTile']

/** WidgetId names a widget of the catalogue (the server's enum). */
export type WidgetId = Tile['widget']

/** Size is a tile's width in columns and height in rows. */
export interface Size {
  w: number
  h: number
}

/** COLUMNS is the grid's width. */
export const COLUMNS = 12
/** MAX_HEIGHT is the most rows one tile may span (the server's bound). */
export const MAX_HEIGHT = 16
/** MAX_ROWS bounds y + h of every tile (the server's bound). */
export const MAX_ROWS = 400

/** Direction is where a keyboard move takes a tile. */
export type Direction = 'left' | 'right' | 'up' | 'down'

const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v))

/** collides reports whether two different tiles share a cell. */
export function collides(a: Tile, b: Tile): boolean {
  return a.widget !== b.widget && a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h
}

/** inReadingOrder is the tiles by row, then column: the order of the page's tab stops and of a phone's column. */
export function inReadingOrder(tiles: readonly Tile[]): Tile[] {
  return [...tiles].sort((a, b) => a.y - b.y || a.x - b.x)
}

/** bottom is the first row below every tile. */
export function bottom(tiles: readonly Tile[]): number {
  return tiles.reduce((n, t) => Math.max(n, t.y + t.h), 0)
}

/**
 * compact moves every tile up as far as it goes without overlapping a tile above it (in
 * reading order), and answers the tiles in reading order. A tile that overlaps one placed
 * before it is pushed down first, so any list comes out without overlaps.
 */
export function compact(tiles: readonly Tile[]): Tile[] {
  const placed: Tile[] = []
  for (const tile of inReadingOrder(tiles)) {
    const t = { ...tile }
    while (placed.some((p) => collides(p, t))) t.y++
    while (t.y > 0 && !placed.some((p) => collides(p, { ...t, y: t.y - 1 }))) t.y--
    placed.push(t)
  }
  return inReadingOrder(placed)
}

/**
 * makeRoom resolves the overlaps `item` causes in `tiles` (which it is part of): each tile
 * it covers goes above it when there is room there and `swap` allows it (a tile dragged
 * down past another trades places with it), and otherwise below it, pushing what it then
 * covers further down.
 */
function makeRoom(tiles: Tile[], item: Tile, swap: boolean): void {
  const hit = tiles.filter((t) => collides(t, item)).sort((a, b) => a.y - b.y)
  for (const other of hit) {
    if (!collides(other, item)) continue // moved already, by an earlier push
    const above = item.y - other.h
    if (swap && above >= 0 && !tiles.some((t) => t !== other && collides(t, { ...other, y: above }))) {
      other.y = above
      continue
    }
    other.y = item.y + item.h
    makeRoom(tiles, other, false)
  }
}

function edit(tiles: readonly Tile[], widget: WidgetId, change: (t: Tile) => void, swap: boolean): Tile[] {
  const copy = tiles.map((t) => ({ ...t }))
  const item = copy.find((t) => t.widget === widget)
  if (!item) return compact(copy)
  change(item)
  makeRoom(copy, item, swap)
  return compact(copy)
}

/** moveTile puts the widget's tile at column x, row y (kept on the grid) and makes room for it. */
export function moveTile(tiles: readonly Tile[], widget: WidgetId, x: number, y: number): Tile[] {
  return edit(
    tiles,
    widget,
    (t) => {
      t.x = clamp(Math.round(x), 0, COLUMNS - t.w)
      t.y = clamp(Math.round(y), 0, MAX_ROWS - t.h)
    },
    true,
  )
}

/**
 * resizeTile gives the widget's tile w columns and h rows, at least `min` and within the
 * grid from where it stands, and makes room below it.
 */
export function resizeTile(tiles: readonly Tile[], widget: WidgetId, w: number, h: number, min: Size = { w: 1, h: 1 }): Tile[] {
  return edit(
    tiles,
    widget,
    (t) => {
      t.w = clamp(Math.round(w), Math.min(min.w, COLUMNS - t.x), COLUMNS - t.x)
      t.h = clamp(Math.round(h), min.h, MAX_HEIGHT)
    },
    false,
  )
}

const sameTile = (a: Tile, b: Tile | undefined) => !!b && a.widget === b.widget && a.x === b.x && a.y === b.y && a.w === b.w && a.h === b.h
const same = (a: readonly Tile[], b: readonly Tile[]) => a.length === b.length && a.every((t, i) => sameTile(t, b[i]))

/**
 * stepTile moves the widget's tile one place from the keyboard. Left and right: it trades
 * places with the tile beside it in the same row, or moves a column into free room. Up and
 * down: past the next tile in its way (one row at a time would not move it at all: the tiles
 * fall back up). Answers the tiles unchanged when it cannot go that way.
 */
export function stepTile(tiles: readonly Tile[], widget: WidgetId, direction: Direction): Tile[] {
  const start = compact(tiles)
  const item = start.find((t) => t.widget === widget)
  if (!item) return start
  if (direction === 'left' || direction === 'right') {
    const right = direction === 'right'
    if (right ? item.x + item.w >= COLUMNS : item.x <= 0) return start
    const beside = start.find((t) => t.y === item.y && (right ? t.x === item.x + item.w : t.x + t.w === item.x))
    if (!beside) return moveTile(start, widget, item.x + (right ? 1 : -1), item.y)
    const copy = start.map((t) => ({ ...t }))
    const a = copy.find((t) => t.widget === widget) as Tile
    const b = copy.find((t) => t.widget === beside.widget) as Tile
    if (right) [a.x, b.x] = [a.x + b.w, a.x]
    else [a.x, b.x] = [b.x, b.x + a.w]
    makeRoom(copy, a, false)
    makeRoom(copy, b, false)
    return compact(copy)
  }
  const down = direction === 'down'
  const last = bottom(start)
  for (let y = item.y + (down ? 1 : -1); y >= 0 && y <= Math.min(last, MAX_ROWS - item.h); y += down ? 1 : -1) {
    const moved = moveTile(start, widget, item.x, y)
    const now = moved.find((t) => t.widget === widget) as Tile
    if (down ? now.y > item.y : now.y < item.y) return moved
  }
  return start
}

/** canStep reports whether stepTile would change anything. */
export function canStep(tiles: readonly Tile[], widget: WidgetId, direction: Direction): boolean {
  return !same(stepTile(tiles, widget, direction), compact(tiles))
}

/**
 * addTile places the widget in `size` at the first free place in reading order (a gap
 * beside shorter tiles, else below them all).
 */
export function addTile(tiles: readonly Tile[], widget: WidgetId, size: Size): Tile[] {
  if (tiles.some((t) => t.widget === widget)) return compact(tiles)
  const tile: Tile = { widget, x: 0, y: 0, w: clamp(size.w, 1, COLUMNS), h: clamp(size.h, 1, MAX_HEIGHT) }
  const last = bottom(tiles)
  for (tile.y = 0; tile.y < last; tile.y++) {
    for (tile.x = 0; tile.x + tile.w <= COLUMNS; tile.x++) {
      if (!tiles.some((t) => collides(t, tile))) return compact([...tiles, tile])
    }
  }
  return compact([...tiles, { ...tile, x: 0, y: last }])
}

/** removeTile takes the widget off the grid; the tiles below it rise. */
export function removeTile(tiles: readonly Tile[], widget: WidgetId): Tile[] {
  return compact(tiles.filter((t) => t.widget !== widget))
}

/** sameLayout reports whether two layouts place the same widgets in the same cells. */
export function sameLayout(a: readonly Tile[], b: readonly Tile[]): boolean {
  return same(inReadingOrder(a), inReadingOrder(b))
}
