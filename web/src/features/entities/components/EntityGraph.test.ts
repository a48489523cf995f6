import { flushPromises, mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { defineComponent, h } from 'vue'
import { createAppI18n } from '../../../app/i18n'
import type { GraphEdge, GraphNode } from '../types'
import EntityGraph from './EntityGraph.vue'

const nodes: GraphNode[] = [
  { id: 'en_team', name: 'Team A', type: 'team', state: 'active' },
  { id: 'en_prod', name: 'Product B', type: 'product', state: 'active' },
  { id: 'en_lib', name: 'Library C', type: 'component', state: 'archived' },
  { id: 'en_lone', name: 'Lonely D', type: 'service', state: 'active' },
]
const edges: GraphEdge[] = [
  { id: 'er_1', sourceId: 'en_team', targetId: 'en_prod', type: 'owns' },
  { id: 'er_2', sourceId: 'en_prod', targetId: 'en_lib', type: 'depends_on' },
]

// jsdom has no canvas (getContext answers null), so ECharts cannot paint here: this
// file stubs only vue-echarts' <v-chart> element. What it would draw is tested in
// graphOption.test.ts; the stub still receives the option, checked below.
const ChartStub = defineComponent({
  name: 'ChartStub',
  props: { option: { type: Object, required: true } },
  emits: ['click'],
  setup: () => () => h('div', { 'data-test': 'chart-stub' }),
})

function mountGraph(props: Record<string, unknown> = {}, locale: 'en' | 'de' = 'en') {
  return mount(EntityGraph, {
    props: { nodes, edges, ...props },
    global: { plugins: [createAppI18n(locale)], stubs: { Echarts: ChartStub } },
    attachTo: document.body,
  })
}

describe('EntityGraph', () => {
  it('describes every relationship as a sentence in the accessible list', async () => {
    const wrapper = mountGraph({ rootId: 'en_team' })
    await flushPromises()
    const lines = wrapper.findAll('[data-test="graph-edge"]').map((li) => li.text().replace(/\s+/g, ' '))
    expect(lines).toEqual(['Team A (this entity) owns Product B', 'Product B depends on Library C (Archived)'])
    expect(wrapper.findAll('[data-test="graph-isolated"]').map((li) => li.text())).toEqual(['Lonely D'])
    expect(wrapper.get('[data-test="graph-canvas"]').attributes('aria-label')).toContain('4 entities and 2 relationships')
    wrapper.unmount()
  })

  it('writes the sentences in German word order', async () => {
    const wrapper = mountGraph({}, 'de')
    await flushPromises()
    const lines = wrapper.findAll('[data-test="graph-edge"]').map((li) => li.text().replace(/\s+/g, ' '))
    expect(lines[1]).toBe('Product B hängt von Library C (Archiviert) ab')
    wrapper.unmount()
  })

  it('emits select with the entity id when a name in the list is activated', async () => {
    const wrapper = mountGraph()
    await flushPromises()
    const buttons = wrapper.findAll('[data-test="graph-edge"] button')
    await buttons[1]!.trigger('click')
    expect(wrapper.emitted('select')).toEqual([['en_prod']])
    wrapper.unmount()
  })

  it('hands the chart the option built from its props and emits select for a clicked node', async () => {
    const wrapper = mountGraph({ rootId: 'en_prod' })
    await flushPromises()
    const chart = wrapper.getComponent(ChartStub)
    const series = (chart.props('option') as { series: { data: { id: string }[]; links: unknown[] }[] }).series[0]!
    expect(series.data.map((node) => node.id)).toEqual(nodes.map((node) => node.id))
    expect(series.links).toHaveLength(2)
    chart.vm.$emit('click', { dataType: 'edge', data: { id: 'er_1' } })
    chart.vm.$emit('click', { dataType: 'node', data: { id: 'en_lib' } })
    expect(wrapper.emitted('select')).toEqual([['en_lib']])
    wrapper.unmount()
  })

  it('re-renders in the new colours when the theme changes', async () => {
    const wrapper = mountGraph()
    await flushPromises()
    const textColor = () =>
      (wrapper.getComponent(ChartStub).props('option') as { series: { label: { color: string } }[] }).series[0]!.label.color
    expect(textColor()).toBe('#303133')
    const root = document.documentElement
    root.style.setProperty('--el-text-color-primary', '#e5eaf3')
    root.classList.add('dark')
    await flushPromises()
    expect(textColor()).toBe('#e5eaf3')
    root.style.removeProperty('--el-text-color-primary')
    root.classList.remove('dark')
    wrapper.unmount()
  })

  it('keeps the list visually hidden until it is toggled', async () => {
    const wrapper = mountGraph()
    await flushPromises()
    const list = () => wrapper.get('[data-test="graph-edge-list"]')
    expect(list().classes()).toContain('entity-graph__list--hidden')
    await wrapper.get('[data-test="graph-list-toggle"]').trigger('click')
    expect(list().classes()).not.toContain('entity-graph__list--hidden')
    expect(wrapper.get('[data-test="graph-list-toggle"]').attributes('aria-expanded')).toBe('true')
    wrapper.unmount()
  })

  it('says when the graph is truncated, and when it is empty', async () => {
    const truncated = mountGraph({ truncated: true })
    expect(truncated.get('[data-test="graph-truncated"]').text()).toContain('too large to show in full')
    truncated.unmount()
    const empty = mountGraph({ nodes: [], edges: [] })
    expect(empty.text()).toContain('No entities to show.')
    expect(empty.find('[data-test="graph-canvas"]').exists()).toBe(false)
    empty.unmount()
  })
})
