import { mount } from '@vue/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import { defineComponent, h, ref } from 'vue'
import { createAppI18n } from '../../app/i18n'
import { settle } from '../../app/testing'
import DashboardGrid from './DashboardGrid.vue'
import type { Tile } from './layout'

// The grid in a host that keeps its v-model, as the page does.
function mountGrid(start: Tile[], { editing = true, phone = false } = {}) {
  const tiles = ref<Tile[]>(start)
  const Host = defineComponent({
    setup: () => () =>
      h(
        DashboardGrid,
        { tiles: tiles.value, 'onUpdate:tiles': (v: Tile[]) => (tiles.value = v), editing, phone },
        { default: ({ tile }: { tile: Tile }) => h('a', { href: '#', class: 'inside' }, tile.widget) },
      ),
  })
  const wrapper = mount(Host, { attachTo: document.body, global: { plugins: [createAppI18n('en')] } })
  // jsdom lays nothing out: a grid 1204 px wide has columns of 100 px (+16 px gaps) and rows of 40 px (+16).
  const grid = wrapper.get('[data-test="dashboard-grid"]').element as HTMLElement
  grid.getBoundingClientRect = () => ({ width: 1376, height: 800, top: 0, left: 0, right: 1376, bottom: 800, x: 0, y: 0, toJSON: () => ({}) })
  return { wrapper, tiles }
}

const pointer = (type: string, x: number, y: number) =>
  Object.assign(new MouseEvent(type, { clientX: x, clientY: y, button: 0, bubbles: true, cancelable: true }), { pointerId: 1 })

const TWO: Tile[] = [
  { widget: 'conformance', x: 0, y: 0, w: 6, h: 7 },
  { widget: 'health', x: 6, y: 0, w: 6, h: 4 },
]

describe('DashboardGrid', () => {
  afterEach(() => {
    document.body.innerHTML = ''
  })

  it('moves a tile dragged by its bar and resizes one dragged by its corner', async () => {
    const { wrapper, tiles } = mountGrid(TWO)
    // 116 px a column, 56 px a row: drag the health tile 6 columns left and 7 rows down.
    wrapper.get('[data-widget="health"] .dash-tile__bar').element.dispatchEvent(pointer('pointerdown', 900, 10))
    window.dispatchEvent(pointer('pointermove', 900 - 6 * 116, 10 + 7 * 56))
    window.dispatchEvent(pointer('pointerup', 900 - 6 * 116, 10 + 7 * 56))
    await settle()
    expect(tiles.value).toEqual([
      { widget: 'conformance', x: 0, y: 0, w: 6, h: 7 },
      { widget: 'health', x: 0, y: 7, w: 6, h: 4 },
    ])
    expect(wrapper.get('[data-test="dashboard-announcement"]').text()).toBe('System status: column 1, row 8, 6 columns wide, 4 rows high')

    wrapper.get('[data-resize="conformance"]').element.dispatchEvent(pointer('pointerdown', 690, 390))
    window.dispatchEvent(pointer('pointermove', 690 + 2 * 116, 390 - 2 * 56))
    window.dispatchEvent(pointer('pointerup', 690 + 2 * 116, 390 - 2 * 56))
    await settle()
    expect(tiles.value[0]).toEqual({ widget: 'conformance', x: 0, y: 0, w: 8, h: 5 })
    expect(tiles.value[1]).toEqual({ widget: 'health', x: 0, y: 5, w: 6, h: 4 })
    // Once the gesture ended, the pointer moves nothing.
    window.dispatchEvent(pointer('pointermove', 0, 0))
    await settle()
    expect(tiles.value[0]?.w).toBe(8)
  })

  it('does not start a drag on the bar buttons, nor outside editing', async () => {
    const { wrapper, tiles } = mountGrid(TWO)
    wrapper.get('[data-remove="health"]').element.dispatchEvent(pointer('pointerdown', 900, 10))
    window.dispatchEvent(pointer('pointermove', 100, 400))
    await settle()
    expect(tiles.value).toEqual(TWO)
    const still = mountGrid(TWO, { editing: false })
    expect(still.wrapper.find('.dash-tile__bar').exists()).toBe(false)
    expect(still.wrapper.find('[data-resize]').exists()).toBe(false)
  })

  it('moves and resizes from the keyboard, keeping the focus on the handle', async () => {
    const { wrapper, tiles } = mountGrid(TWO)
    await wrapper.get('[data-move="health"]').trigger('keydown', { key: 'ArrowLeft' })
    await settle()
    expect(tiles.value.map((t) => [t.widget, t.x])).toEqual([
      ['health', 0],
      ['conformance', 6],
    ])
    expect(document.activeElement?.getAttribute('data-move')).toBe('health')
    await wrapper.get('[data-resize="health"]').trigger('keydown', { key: 'ArrowDown' })
    await settle()
    expect(tiles.value.find((t) => t.widget === 'health')?.h).toBe(5)
    expect(document.activeElement?.getAttribute('data-resize')).toBe('health')
    await wrapper.get('[data-move="health"]').trigger('keydown', { key: 'ArrowUp', shiftKey: true })
    await settle()
    expect(tiles.value.find((t) => t.widget === 'health')?.h).toBe(4)
    expect(wrapper.get('[data-test="dashboard-announcement"]').text()).toBe('System status: column 1, row 1, 6 columns wide, 4 rows high')
  })

  it('places tiles on the grid, and keeps the widgets out of reach while editing', () => {
    const { wrapper } = mountGrid(TWO)
    const health = wrapper.get('[data-widget="health"]')
    expect((health.element as HTMLElement).style.gridColumn).toBe('7 / span 6')
    expect((health.element as HTMLElement).style.gridRow).toBe('1 / span 4')
    expect(health.attributes('role')).toBe('group')
    expect(health.attributes('aria-label')).toBe('System status')
    expect(health.get('.dash-tile__body').attributes('inert')).toBeDefined()
    const viewing = mountGrid(TWO, { editing: false })
    expect(viewing.wrapper.get('[data-widget="health"] .dash-tile__body').attributes('inert')).toBeUndefined()
  })

  it('stacks the tiles in reading order in one column on a phone, without drag handles', () => {
    const { wrapper } = mountGrid([...TWO].reverse(), { phone: true })
    const grid = wrapper.get('[data-test="dashboard-grid"]')
    expect(grid.classes()).toContain('dash-grid--stack')
    const tiles = grid.findAll('[data-widget]')
    expect(tiles.map((t) => t.attributes('data-widget'))).toEqual(['conformance', 'health'])
    expect((tiles[0]?.element as HTMLElement).style.gridColumn).toBe('')
    expect(wrapper.find('[data-move]').exists()).toBe(false)
    expect(wrapper.find('[data-resize]').exists()).toBe(false)
    expect(wrapper.find('[data-menu="health"]').exists()).toBe(true)
  })
})
