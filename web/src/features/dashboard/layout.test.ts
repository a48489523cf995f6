import { describe, expect, it } from 'vitest'
import {
  addTile,
  canStep,
  collides,
  compact,
  COLUMNS,
  inReadingOrder,
  MAX_HEIGHT,
  MAX_ROWS,
  moveTile,
  removeTile,
  resizeTile,
  sameLayout,
  stepTile,
  type Tile,
  type WidgetId,
} from './layout'
import { fallbackLayout, missingWidgets, WIDGET_IDS } from './widgets'

const tile = (widget: WidgetId, x: number, y: number, w: number, h: number): Tile => ({ widget, x, y, w, h })
const at = (tiles: Tile[], widget: WidgetId) => tiles.find((t) => t.widget === widget)
const place = (tiles: Tile[]) => Object.fromEntries(tiles.map((t) => [t.widget, [t.x, t.y, t.w, t.h]]))

/** valid: on the grid, within the server's bounds, each widget once, nothing overlapping. */
function expectValid(tiles: Tile[]) {
  expect(new Set(tiles.map((t) => t.widget)).size).toBe(tiles.length)
  for (const t of tiles) {
    expect(t.x).toBeGreaterThanOrEqual(0)
    expect(t.x + t.w).toBeLessThanOrEqual(COLUMNS)
    expect(t.y).toBeGreaterThanOrEqual(0)
    expect(t.h).toBeLessThanOrEqual(MAX_HEIGHT)
    expect(t.y + t.h).toBeLessThanOrEqual(MAX_ROWS)
    for (const o of tiles) expect(collides(t, o)).toBe(false)
  }
}

// Two charts side by side under a row of three key figures.
const BOARD: Tile[] = [
  tile('openAssessments', 0, 0, 4, 2),
  tile('overdueAssessments', 4, 0, 4, 2),
  tile('evidenceInReview', 8, 0, 4, 2),
  tile('assessmentPipeline', 0, 2, 6, 7),
  tile('conformance', 6, 2, 6, 7),
  tile('health', 0, 9, 12, 4),
]

describe('dashboard layout', () => {
  it('compacts tiles upwards, keeps reading order and resolves overlaps', () => {
    const holes = [tile('health', 0, 10, 6, 4), tile('welcome', 6, 3, 6, 4), tile('conformance', 0, 2, 6, 3)]
    expect(place(compact(holes))).toEqual({ conformance: [0, 0, 6, 3], welcome: [6, 0, 6, 4], health: [0, 3, 6, 4] })
    expect(compact(holes).map((t) => t.widget)).toEqual(['conformance', 'welcome', 'health'])
    const overlapping = compact([tile('health', 0, 0, 6, 4), tile('welcome', 3, 1, 6, 4)])
    expectValid(overlapping)
    expect(at(overlapping, 'welcome')?.y).toBe(4)
  })

  it('moves a tile by drag: the tiles in its way make room and nothing overlaps', () => {
    // Dropping the health strip at the top pushes everything under it.
    const top = moveTile(BOARD, 'health', 0, 0)
    expectValid(top)
    expect(at(top, 'health')).toEqual(tile('health', 0, 0, 12, 4))
    expect(at(top, 'openAssessments')?.y).toBe(4)
    expect(at(top, 'conformance')?.y).toBe(6)
    // Dragging the left chart onto the right one's place swaps them.
    const swapped = moveTile(BOARD, 'assessmentPipeline', 6, 2)
    expectValid(swapped)
    expect(at(swapped, 'assessmentPipeline')?.x).toBe(6)
    // Off the grid is kept on it.
    const clamped = moveTile(BOARD, 'openAssessments', 20, -3)
    expectValid(clamped)
    expect(at(clamped, 'openAssessments')?.x).toBe(8)
  })

  it('moves a tile down past a taller one below it (they trade places)', () => {
    const col = [tile('overdueAssessments', 0, 0, 6, 2), tile('conformance', 0, 2, 6, 7)]
    const moved = moveTile(col, 'overdueAssessments', 0, 8)
    expect(place(moved)).toEqual({ conformance: [0, 0, 6, 7], overdueAssessments: [0, 7, 6, 2] })
  })

  it('resizes within the grid and the widget minimum, pushing what it covers down', () => {
    const wide = resizeTile(BOARD, 'assessmentPipeline', 9, 8)
    expectValid(wide)
    expect(at(wide, 'assessmentPipeline')).toEqual(tile('assessmentPipeline', 0, 2, 9, 8))
    expect(at(wide, 'conformance')?.y).toBe(10)
    expect(at(resizeTile(BOARD, 'conformance', 40, 40), 'conformance')).toEqual(tile('conformance', 6, 2, 6, MAX_HEIGHT))
    expect(at(resizeTile(BOARD, 'conformance', 0, 0, { w: 3, h: 4 }), 'conformance')).toEqual(tile('conformance', 6, 2, 3, 4))
  })

  it('steps a tile from the keyboard: beside ones trade places, up and down pass the next tile', () => {
    const right = stepTile(BOARD, 'openAssessments', 'right')
    expect(place(right)).toMatchObject({ overdueAssessments: [0, 0, 4, 2], openAssessments: [4, 0, 4, 2] })
    expect(sameLayout(stepTile(right, 'openAssessments', 'left'), BOARD)).toBe(true)
    const down = stepTile(BOARD, 'openAssessments', 'down')
    expectValid(down)
    expect(at(down, 'openAssessments')?.y).toBe(9) // past the chart under it
    expect(at(down, 'assessmentPipeline')?.y).toBe(2) // which the figure beside still holds in place
    expect(sameLayout(stepTile(down, 'openAssessments', 'up'), BOARD)).toBe(true)
    const up = stepTile(BOARD, 'health', 'up')
    expectValid(up)
    expect(at(up, 'health')?.y).toBeLessThan(9)
    // Into free room a column at a time.
    const lone = [tile('welcome', 2, 0, 4, 4)]
    expect(at(stepTile(lone, 'welcome', 'left'), 'welcome')?.x).toBe(1)
  })

  it('knows when a step cannot move a tile', () => {
    expect(canStep(BOARD, 'openAssessments', 'left')).toBe(false)
    expect(canStep(BOARD, 'openAssessments', 'up')).toBe(false)
    expect(canStep(BOARD, 'evidenceInReview', 'right')).toBe(false)
    expect(canStep(BOARD, 'health', 'down')).toBe(false)
    expect(canStep(BOARD, 'health', 'up')).toBe(true)
    expect(canStep(BOARD, 'openAssessments', 'right')).toBe(true)
    expect(sameLayout(stepTile(BOARD, 'health', 'down'), BOARD)).toBe(true)
  })

  it('adds a widget at the first free place and removes one, the rest rising', () => {
    const added = addTile(BOARD.slice(0, 2), 'sealedAttestations', { w: 4, h: 2 })
    expect(at(added, 'sealedAttestations')).toEqual(tile('sealedAttestations', 8, 0, 4, 2))
    const below = addTile(BOARD, 'welcome', { w: 6, h: 7 })
    expect(at(below, 'welcome')).toEqual(tile('welcome', 0, 13, 6, 7))
    expect(addTile(BOARD, 'health', { w: 2, h: 2 })).toEqual(inReadingOrder(BOARD))
    const removed = removeTile(BOARD, 'assessmentPipeline')
    expect(at(removed, 'assessmentPipeline')).toBeUndefined()
    expect(at(removed, 'health')?.y).toBe(9)
    const noKpis = removeTile(removeTile(removeTile(BOARD, 'openAssessments'), 'overdueAssessments'), 'evidenceInReview')
    expect(at(noKpis, 'conformance')?.y).toBe(0)
  })

  it('offers the widgets not shown, in the catalogue order, and packs all of them as a fallback', () => {
    expect(missingWidgets(BOARD, ['health', 'welcome', 'weather', 'openAssessments'])).toEqual(['welcome'])
    expect(missingWidgets(BOARD)).toEqual(WIDGET_IDS.filter((id) => !BOARD.some((t) => t.widget === id)))
    const all = fallbackLayout()
    expectValid(all)
    expect(all.map((t) => t.widget).sort()).toEqual([...WIDGET_IDS].sort())
    expect(all.filter((t) => t.y === 0)).toHaveLength(6) // the key figures fill the first row
  })

  it('keeps any sequence of edits valid', () => {
    let tiles = fallbackLayout()
    const ids = tiles.map((t) => t.widget)
    let seed = 7
    const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n)
    const directions = ['left', 'right', 'up', 'down'] as const
    for (let i = 0; i < 300; i++) {
      const id = ids[next(ids.length)] as WidgetId
      switch (next(4)) {
        case 0:
          tiles = moveTile(tiles, id, next(14) - 1, next(40))
          break
        case 1:
          tiles = resizeTile(tiles, id, next(14), next(18))
          break
        case 2:
          tiles = stepTile(tiles, id, directions[next(4)] ?? 'up')
          break
        default:
          tiles = next(2) ? removeTile(tiles, id) : addTile(tiles, id, { w: next(12) + 1, h: next(16) + 1 })
      }
      expectValid(tiles)
    }
  })
})
