import { describe, expect, it } from 'vitest'
import { ENTITY_TYPE_STYLES, type GraphEdge, type GraphNode } from '../types'
import {
  buildGraphOption,
  chooseLayout,
  DIMMED_OPACITY,
  escapeHTML,
  layeredPositions,
  NODE_SIZE,
  ROOT_SIZE,
  type GraphOptionInput,
} from './graphOption'

const colors = { text: '#111111', mutedText: '#777777', line: '#cccccc', background: '#ffffff' }
const labels: GraphOptionInput['labels'] = {
  type: (type) => `type:${type}`,
  state: (state) => `state:${state}`,
  relationship: (type) => `rel:${type}`,
  sentence: (type, source, target) => `${source} ${type} ${target}`,
}

const nodes: GraphNode[] = [
  { id: 'en_org', name: 'Acme', type: 'organization', state: 'active' },
  { id: 'en_team', name: 'Team A', type: 'team', state: 'active' },
  { id: 'en_prod', name: 'Product B', type: 'product', state: 'active' },
  { id: 'en_old', name: 'Legacy <C>', type: 'product', state: 'archived' },
  { id: 'en_vendor', name: 'Vendor V', type: 'vendor', state: 'inactive' },
]
const edges: GraphEdge[] = [
  { id: 'er_1', sourceId: 'en_org', targetId: 'en_team', type: 'owns' },
  { id: 'er_2', sourceId: 'en_team', targetId: 'en_prod', type: 'owns' },
  { id: 'er_3', sourceId: 'en_team', targetId: 'en_old', type: 'owns' },
  { id: 'er_4', sourceId: 'en_vendor', targetId: 'en_prod', type: 'supplies' },
]

function build(input: Partial<GraphOptionInput> = {}) {
  const option = buildGraphOption({ nodes, edges, colors, labels, ...input })
  const series = (option.series as Record<string, unknown>[])[0] as {
    layout: string
    preserveAspect: string
    data: { id: string; name: string; category: number; symbol: string; symbolSize: number; itemStyle: { color: string; opacity: number; borderWidth: number }; label: { color: string; fontWeight: string }; x?: number; y?: number }[]
    links: { id: string; source: string; target: string; label: { show: boolean; formatter: string }; lineStyle: { opacity: number } }[]
    categories: { name: string; itemStyle: { color: string } }[]
    edgeSymbol: string[]
    roam: boolean
  }
  return { option, series }
}

describe('buildGraphOption', () => {
  it('has a node per entity and a link per relationship, drawn as arrows from source to target', () => {
    const { series } = build()
    expect(series.data.map((node) => node.id)).toEqual(nodes.map((node) => node.id))
    expect(series.links.map((link) => [link.source, link.target])).toEqual(edges.map((e) => [e.sourceId, e.targetId]))
    expect(series.edgeSymbol).toEqual(['none', 'arrow'])
    expect(series.roam).toBe(true)
  })

  it('colours and shapes nodes by entity type, with one legend entry per type present', () => {
    const { option, series } = build()
    const team = series.data.find((node) => node.id === 'en_team')!
    expect(team.itemStyle.color).toBe(ENTITY_TYPE_STYLES.team.color)
    expect(team.symbol).toBe(ENTITY_TYPE_STYLES.team.symbol)
    expect(series.categories.map((c) => c.name)).toEqual(['type:organization', 'type:team', 'type:product', 'type:vendor'])
    expect(series.categories[team.category]?.name).toBe('type:team')
    expect(series.categories[2]?.itemStyle.color).toBe(ENTITY_TYPE_STYLES.product.color)
    expect((option.legend as { data: string[] }).data).toEqual(series.categories.map((c) => c.name))
  })

  it('labels each edge with its translated relationship type', () => {
    const { series } = build()
    expect(series.links.map((link) => link.label.formatter)).toEqual(['rel:owns', 'rel:owns', 'rel:owns', 'rel:supplies'])
    expect(series.links.every((link) => link.label.show)).toBe(true)
  })

  it('emphasises the root and dims inactive and archived entities and their edges', () => {
    const { series } = build({ rootId: 'en_team' })
    const byId = new Map(series.data.map((node) => [node.id, node]))
    expect(byId.get('en_team')!.symbolSize).toBe(ROOT_SIZE)
    expect(byId.get('en_team')!.label.fontWeight).toBe('bold')
    expect(byId.get('en_team')!.itemStyle.borderWidth).toBeGreaterThan(byId.get('en_org')!.itemStyle.borderWidth)
    expect(byId.get('en_org')!.symbolSize).toBe(NODE_SIZE)
    expect(byId.get('en_old')!.itemStyle.opacity).toBe(DIMMED_OPACITY)
    expect(byId.get('en_vendor')!.itemStyle.opacity).toBe(DIMMED_OPACITY)
    expect(byId.get('en_vendor')!.label.color).toBe(colors.mutedText)
    expect(byId.get('en_prod')!.itemStyle.opacity).toBe(1)
    const opacity = Object.fromEntries(series.links.map((link) => [link.id, link.lineStyle.opacity]))
    expect(opacity).toMatchObject({ er_2: 0.9, er_3: DIMMED_OPACITY, er_4: DIMMED_OPACITY })
  })

  it('paints text and lines in the theme colours it is given', () => {
    const dark = { text: '#e5eaf3', mutedText: '#a3a6ad', line: '#4c4d4f', background: '#141414' }
    const { option } = build({ colors: dark })
    const series = (option.series as { label: { color: string }; lineStyle: { color: string } }[])[0]!
    expect(series.label.color).toBe(dark.text)
    expect(series.lineStyle.color).toBe(dark.line)
    expect((option.legend as { textStyle: { color: string } }).textStyle.color).toBe(dark.text)
  })

  it('drops edges to entities outside the graph', () => {
    const { series } = build({ edges: [...edges, { id: 'er_x', sourceId: 'en_team', targetId: 'en_gone', type: 'owns' }] })
    expect(series.links.map((link) => link.id)).not.toContain('er_x')
  })

  it('writes escaped tooltips for nodes and edges', () => {
    const { option } = build()
    const formatter = (option.tooltip as { formatter: (p: unknown) => string }).formatter
    const { series } = build()
    const legacy = series.data.find((node) => node.id === 'en_old')
    expect(formatter({ dataType: 'node', data: legacy })).toBe(
      '<strong>Legacy &#60;C&#62;</strong><br>type:product · state:archived',
    )
    expect(formatter({ dataType: 'edge', data: series.links[2] })).toBe('Team A owns Legacy &#60;C&#62;')
  })
})

describe('layout', () => {
  it('draws a pure owns/contains/governs structure in layers, parents above children', () => {
    const tree = edges.filter((edge) => edge.type !== 'supplies')
    expect(chooseLayout(nodes, tree)).toBe('layered')
    const positions = layeredPositions(nodes, tree)!
    expect(positions.get('en_org')!.y).toBeLessThan(positions.get('en_team')!.y)
    expect(positions.get('en_team')!.y).toBeLessThan(positions.get('en_prod')!.y)
    expect(positions.get('en_prod')!.y).toBe(positions.get('en_old')!.y)
    // A chain is staggered, never a zero-width column ECharts cannot fit.
    const xs = new Set([...positions.values()].map((p) => p.x))
    expect(xs.size).toBeGreaterThan(1)
    const { series } = build({ edges: tree })
    expect(series.layout).toBe('none')
    expect(series.preserveAspect).toBe('contain')
    expect(series.data.every((node) => typeof node.x === 'number' && typeof node.y === 'number')).toBe(true)
  })

  it('uses a force layout for other relationships and for cycles', () => {
    expect(chooseLayout(nodes, edges)).toBe('force')
    const cycle: GraphEdge[] = [
      { id: 'a', sourceId: 'en_org', targetId: 'en_team', type: 'owns' },
      { id: 'b', sourceId: 'en_team', targetId: 'en_org', type: 'governs' },
    ]
    expect(chooseLayout(nodes, cycle)).toBe('force')
    expect(layeredPositions(nodes, cycle)).toBeNull()
    expect(build().series.layout).toBe('force')
  })
})

describe('escapeHTML', () => {
  it('escapes markup in user text', () => {
    expect(escapeHTML(`<img src=x onerror="a('b')">&`)).toBe('&#60;img src=x onerror=&#34;a(&#39;b&#39;)&#34;&#62;&#38;')
  })
})
