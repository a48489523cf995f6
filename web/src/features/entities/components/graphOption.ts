import type { GraphSeriesOption } from 'echarts/charts'
import type { LegendComponentOption, TooltipComponentOption } from 'echarts/components'
import type { ComposeOption } from 'echarts/core'
import {
  ENTITY_TYPE_STYLES,
  ENTITY_TYPES,
  HIERARCHICAL_RELATIONSHIPS,
  isDimmed,
  type EntityState,
  type EntityType,
  type GraphEdge,
  type GraphNode,
  type RelationshipType,
} from '../types'

// The pure half of EntityGraph: props in, an ECharts option out. It imports only
// types from ECharts, so it costs nothing in the bundle and is tested without a chart.

/** EntityGraphOption is the ECharts option the graph renders (graph series, legend, tooltip). */
export type EntityGraphOption = ComposeOption<GraphSeriesOption | LegendComponentOption | TooltipComponentOption>

/** GraphLayout is how nodes are placed: a force simulation or layers from parents to children. */
export type GraphLayout = 'force' | 'layered'

/** GraphColors are the theme's colours the chart paints with (read from Element Plus' CSS variables). */
export interface GraphColors {
  text: string
  mutedText: string
  line: string
  background: string
}

/** GraphLabels translate what the chart shows in words. */
export interface GraphLabels {
  type(type: EntityType): string
  state(state: EntityState): string
  relationship(type: RelationshipType): string
  sentence(type: RelationshipType, source: string, target: string): string
}

/** GraphOptionInput is everything buildGraphOption needs. */
export interface GraphOptionInput {
  nodes: readonly GraphNode[]
  edges: readonly GraphEdge[]
  rootId?: string | null
  /** layout overrides the automatic choice (see chooseLayout). */
  layout?: GraphLayout
  colors: GraphColors
  labels: GraphLabels
}

/** NODE_SIZE and ROOT_SIZE are the symbol sizes of an ordinary node and of the root. */
export const NODE_SIZE = 22
export const ROOT_SIZE = 36

/** DIMMED_OPACITY is how opaque inactive and archived entities (and their edges) are drawn. */
export const DIMMED_OPACITY = 0.35

/** EDGE_LABEL_LIMIT is the edge count above which edge labels would only be clutter; the tooltip and the list still name them. */
export const EDGE_LABEL_LIMIT = 120

const LAYER_GAP = 120
const SIBLING_GAP = 170

/** connectedEdges drops edges whose source or target is not among the nodes (a truncated graph can cut them). */
export function connectedEdges(nodes: readonly GraphNode[], edges: readonly GraphEdge[]): GraphEdge[] {
  const ids = new Set(nodes.map((node) => node.id))
  return edges.filter((edge) => ids.has(edge.sourceId) && ids.has(edge.targetId))
}

/**
 * layers assigns each node a layer, the length of the longest path of edges reaching it,
 * so parents sit above their children. It answers null when the edges form a cycle.
 */
export function layers(nodes: readonly GraphNode[], edges: readonly GraphEdge[]): Map<string, number> | null {
  const incoming = new Map(nodes.map((node) => [node.id, 0]))
  const children = new Map<string, string[]>(nodes.map((node) => [node.id, []]))
  for (const edge of edges) {
    incoming.set(edge.targetId, (incoming.get(edge.targetId) ?? 0) + 1)
    children.get(edge.sourceId)?.push(edge.targetId)
  }
  const layer = new Map(nodes.map((node) => [node.id, 0]))
  const ready = nodes.filter((node) => incoming.get(node.id) === 0).map((node) => node.id)
  let placed = 0
  while (ready.length > 0) {
    const id = ready.shift() as string
    placed++
    for (const child of children.get(id) ?? []) {
      layer.set(child, Math.max(layer.get(child) ?? 0, (layer.get(id) ?? 0) + 1))
      const left = (incoming.get(child) ?? 0) - 1
      incoming.set(child, left)
      if (left === 0) ready.push(child)
    }
  }
  return placed === nodes.length ? layer : null
}

/**
 * chooseLayout draws a pure structure (only owns, contains and governs edges, no cycle)
 * in layers, and anything else with a force layout.
 */
export function chooseLayout(nodes: readonly GraphNode[], edges: readonly GraphEdge[]): GraphLayout {
  if (edges.length === 0) return 'force'
  if (!edges.every((edge) => HIERARCHICAL_RELATIONSHIPS.has(edge.type))) return 'force'
  return layers(nodes, edges) ? 'layered' : 'force'
}

/**
 * layeredPositions places each layer on its own row, centred, in the order the nodes
 * come; every other row is shifted by half a gap. The shift keeps a chain (one entity
 * per layer) from being a zero-width column, which ECharts cannot fit into the view,
 * and keeps vertical edge labels off the nodes below.
 */
export function layeredPositions(
  nodes: readonly GraphNode[],
  edges: readonly GraphEdge[],
): Map<string, { x: number; y: number }> | null {
  const layerOf = layers(nodes, edges)
  if (!layerOf) return null
  const rows = new Map<number, string[]>()
  for (const node of nodes) {
    const layer = layerOf.get(node.id) ?? 0
    rows.set(layer, [...(rows.get(layer) ?? []), node.id])
  }
  const positions = new Map<string, { x: number; y: number }>()
  for (const [layer, ids] of rows) {
    ids.forEach((id, index) => {
      const shift = layer % 2 === 1 ? SIBLING_GAP / 2 : 0
      positions.set(id, { x: (index - (ids.length - 1) / 2) * SIBLING_GAP + shift, y: layer * LAYER_GAP })
    })
  }
  return positions
}

/** presentTypes lists the entity types that occur among the nodes, in ENTITY_TYPES order: the legend's entries. */
export function presentTypes(nodes: readonly GraphNode[]): EntityType[] {
  const present = new Set(nodes.map((node) => node.type))
  return ENTITY_TYPES.filter((type) => present.has(type))
}

/** escapeHTML makes user text (entity names) safe inside the tooltip, which ECharts renders as HTML. */
export function escapeHTML(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

// TooltipParams is the part of ECharts' formatter argument the tooltip reads.
interface TooltipParams {
  dataType?: string
  data?: unknown
}

/** buildGraphOption turns the graph's nodes and edges into the chart's option. */
export function buildGraphOption(input: GraphOptionInput): EntityGraphOption {
  const { nodes, rootId, colors, labels } = input
  const edges = connectedEdges(nodes, input.edges)
  const layout = input.layout ?? chooseLayout(nodes, edges)
  const positions = layout === 'layered' ? layeredPositions(nodes, edges) : null
  const types = presentTypes(nodes)
  const byId = new Map(nodes.map((node) => [node.id, node]))

  const data = nodes.map((node) => {
    const root = node.id === rootId
    const dimmed = isDimmed(node.state)
    const style = ENTITY_TYPE_STYLES[node.type]
    return {
      id: node.id,
      name: node.name,
      category: types.indexOf(node.type),
      symbol: style.symbol,
      symbolSize: root ? ROOT_SIZE : NODE_SIZE,
      ...positions?.get(node.id),
      itemStyle: {
        color: style.color,
        opacity: dimmed ? DIMMED_OPACITY : 1,
        borderColor: root ? colors.text : colors.background,
        borderWidth: root ? 3 : 1,
      },
      label: {
        color: dimmed ? colors.mutedText : colors.text,
        fontWeight: root ? ('bold' as const) : ('normal' as const),
        fontSize: root ? 14 : 12,
      },
      // Read back by the tooltip.
      entity: node,
    }
  })

  const showEdgeLabels = edges.length <= EDGE_LABEL_LIMIT
  const links = edges.map((edge) => {
    const faded = isDimmed(byId.get(edge.sourceId)!.state) || isDimmed(byId.get(edge.targetId)!.state)
    return {
      id: edge.id,
      source: edge.sourceId,
      target: edge.targetId,
      label: { show: showEdgeLabels, formatter: labels.relationship(edge.type) },
      lineStyle: { opacity: faded ? DIMMED_OPACITY : 0.9 },
      edge,
    }
  })

  return {
    backgroundColor: 'transparent',
    textStyle: { color: colors.text },
    legend: {
      type: 'scroll',
      top: 0,
      left: 'center',
      data: types.map((type) => labels.type(type)),
      textStyle: { color: colors.text },
      pageTextStyle: { color: colors.mutedText },
      pageIconColor: colors.text,
      pageIconInactiveColor: colors.line,
      inactiveColor: colors.line,
    },
    tooltip: {
      trigger: 'item',
      confine: true,
      formatter: (params: unknown) => tooltipText(params as TooltipParams, byId, labels),
    },
    series: [
      {
        type: 'graph',
        layout: layout === 'layered' ? 'none' : 'force',
        top: 40,
        bottom: 20,
        left: 20,
        right: 20,
        // Layered positions keep their proportions (ECharts 6 would stretch them to the box).
        preserveAspect: 'contain',
        roam: true,
        draggable: layout === 'force',
        categories: types.map((type) => ({
          name: labels.type(type),
          symbol: ENTITY_TYPE_STYLES[type].symbol,
          itemStyle: { color: ENTITY_TYPE_STYLES[type].color },
        })),
        data,
        links,
        edgeSymbol: ['none', 'arrow'],
        edgeSymbolSize: [0, 9],
        label: { show: true, position: 'right', color: colors.text, overflow: 'truncate', width: 150 },
        labelLayout: { hideOverlap: true },
        edgeLabel: { show: showEdgeLabels, fontSize: 11, color: colors.mutedText },
        lineStyle: { color: colors.line, width: 1.5, curveness: layout === 'force' ? 0.15 : 0 },
        emphasis: { focus: 'adjacency', lineStyle: { width: 3 } },
        force: { repulsion: 260, edgeLength: [90, 170], gravity: 0.08, layoutAnimation: nodes.length <= 200 },
      },
    ],
  }
}

function tooltipText(params: TooltipParams, byId: Map<string, GraphNode>, labels: GraphLabels): string {
  const data = params.data as { entity?: GraphNode; edge?: GraphEdge } | undefined
  if (params.dataType === 'node' && data?.entity) {
    const node = data.entity
    return `<strong>${escapeHTML(node.name)}</strong><br>${escapeHTML(labels.type(node.type))} · ${escapeHTML(labels.state(node.state))}`
  }
  if (params.dataType === 'edge' && data?.edge) {
    const edge = data.edge
    const source = byId.get(edge.sourceId)?.name ?? edge.sourceId
    const target = byId.get(edge.targetId)?.name ?? edge.targetId
    return escapeHTML(labels.sentence(edge.type, source, target))
  }
  return ''
}
