import { addTile, type Size, type Tile, type WidgetId } from './layout'

// The widget catalogue as the page knows it (the server's is assess.DashboardWidgets; the
// generated WidgetId type makes this table name every one of them): how big a widget is when
// it is added, and the smallest it can be made. Its name is `dashboard.widgets.<id>`.

/** WidgetSpec is what the grid needs to know of a widget. */
export interface WidgetSpec {
  /** size is the tile's size when the widget is added. */
  size: Size
  /** min is the smallest the tile can be resized to. */
  min: Size
}

const kpi: WidgetSpec = { size: { w: 2, h: 2 }, min: { w: 2, h: 2 } }
const chart: WidgetSpec = { size: { w: 6, h: 7 }, min: { w: 3, h: 4 } }
const list: WidgetSpec = { size: { w: 6, h: 7 }, min: { w: 3, h: 3 } }

/** WIDGETS is every widget of the catalogue, in the order the page offers them. */
export const WIDGETS: Readonly<Record<WidgetId, WidgetSpec>> = {
  openAssessments: kpi,
  overdueAssessments: kpi,
  evidenceInReview: kpi,
  evidenceExpiring: kpi,
  sealedAttestations: kpi,
  attestationsExpiring: kpi,
  assessmentPipeline: chart,
  conformance: chart,
  answers: { size: { w: 4, h: 7 }, min: { w: 3, h: 4 } },
  evidenceByState: chart,
  attestationsByState: chart,
  upcomingDueDates: list,
  weakestRequirements: list,
  expiringCitedEvidence: list,
  recentActivity: list,
  welcome: { size: { w: 6, h: 7 }, min: { w: 3, h: 4 } },
  health: { size: { w: 6, h: 7 }, min: { w: 3, h: 4 } },
}

/** WIDGET_IDS is the catalogue's widgets in order. */
export const WIDGET_IDS = Object.keys(WIDGETS) as WidgetId[]

/** isWidget reports whether the page knows a widget the server names. */
export function isWidget(id: string): id is WidgetId {
  return Object.hasOwn(WIDGETS, id)
}

/** minOf is the smallest size of a widget's tile. */
export function minOf(id: WidgetId): Size {
  return WIDGETS[id].min
}

/**
 * missingWidgets are the widgets of `catalogue` (the server's order; the page's own when
 * absent) that the layout does not show and the page can draw: what "Add widget" offers.
 */
export function missingWidgets(tiles: readonly Tile[], catalogue?: readonly string[] | null): WidgetId[] {
  const shown = new Set(tiles.map((t) => t.widget))
  return (catalogue ?? WIDGET_IDS).filter(isWidget).filter((id) => !shown.has(id))
}

/**
 * fallbackLayout is every widget of the catalogue at its size, packed in order: what the
 * page shows when the server's layout cannot be read, so the figures still reach the reader.
 */
export function fallbackLayout(): Tile[] {
  return WIDGET_IDS.reduce<Tile[]>((tiles, id) => addTile(tiles, id, WIDGETS[id].size), [])
}
