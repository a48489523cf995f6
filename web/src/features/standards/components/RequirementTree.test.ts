import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { ElMessageBox } from 'element-plus'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createAppI18n } from '../../../app/i18n'
import type { Level, Requirement } from '../types'
import { bigTree, levels, smallTree } from './fixtures'
import RequirementRow from './RequirementRow.vue'
import RequirementTree from './RequirementTree.vue'

type Props = {
  requirements?: Requirement[]
  levels?: Level[]
  editable?: boolean
  selectedLevelId?: string | null
}

function mountTree(props: Props = {}) {
  return mount(RequirementTree, {
    attachTo: document.body,
    props: { requirements: smallTree(), levels, editable: true, ...props },
    global: { plugins: [createAppI18n('en')] },
  })
}

function rows(wrapper: VueWrapper) {
  return wrapper.findAll('[role="treeitem"]')
}
function rowIds(wrapper: VueWrapper): string[] {
  return rows(wrapper).map((row) => row.attributes('data-id') ?? '')
}
function row(wrapper: VueWrapper, id: string) {
  return wrapper.get(`[role="treeitem"][data-id="${id}"]`)
}
async function key(wrapper: VueWrapper, id: string, name: string, init: KeyboardEventInit = {}) {
  await row(wrapper, id).trigger('keydown', { key: name, ...init })
  await flushPromises()
}

/** dataTransfer stands in for the browser's, which jsdom lacks. */
function dataTransfer() {
  const data = new Map<string, string>()
  return {
    effectAllowed: 'all',
    dropEffect: 'none',
    setData: (type: string, value: string) => data.set(type, value),
    getData: (type: string) => data.get(type) ?? '',
  }
}

describe('RequirementTree', () => {
  beforeEach(() => {
    document.body.innerHTML = ''
  })

  it('renders far fewer rows than a tree of 1,000 requirements has', () => {
    const requirements = bigTree()
    const wrapper = mountTree({ requirements })
    const rendered = rows(wrapper).length
    expect(requirements.length).toBe(1010)
    expect(rendered).toBeGreaterThan(10)
    expect(rendered).toBeLessThan(60)
    // The spacers stand in for the rest: the scroll height is that of every row.
    const spacers = wrapper.findAll('[data-test="requirement-tree"] > [role="presentation"]')
    const spacerHeight = spacers.reduce((sum, spacer) => sum + parseInt((spacer.element as HTMLElement).style.height, 10), 0)
    expect(spacerHeight + rendered * 36).toBe(1010 * 36)
    wrapper.unmount()
  })

  it('renders the rows scrolled into view', async () => {
    const wrapper = mountTree({ requirements: bigTree() })
    const scroller = wrapper.get('[data-test="requirement-tree"]')
    ;(scroller.element as HTMLElement).scrollTop = 36 * 500
    await scroller.trigger('scroll')
    expect(rowIds(wrapper)).toContain(bigTree()[500]!.id)
    expect(rowIds(wrapper)).not.toContain('r1')
    wrapper.unmount()
  })

  it('carries tree semantics: levels, expanded state, one tabbable row', () => {
    const wrapper = mountTree()
    expect(wrapper.get('[data-test="requirement-tree"]').attributes('role')).toBe('tree')
    const first = row(wrapper, 'a')
    expect(first.attributes('aria-level')).toBe('1')
    expect(first.attributes('aria-expanded')).toBe('true')
    expect(first.attributes('aria-selected')).toBe('true')
    expect(row(wrapper, 'a1x').attributes('aria-level')).toBe('3')
    expect(row(wrapper, 'c').attributes('aria-expanded')).toBeUndefined()
    // One tab stop: the active row; its buttons, checkboxes and menus are reached by keys.
    const tabbable = wrapper.findAll('[data-test="requirement-tree"] [tabindex="0"], [data-test="requirement-tree"] button:not([tabindex="-1"])')
    expect(tabbable.map((element) => element.attributes('data-id'))).toEqual(['a'])
    wrapper.unmount()
  })

  it('collapses and expands a branch, and all of them', async () => {
    const wrapper = mountTree()
    await row(wrapper, 'a').get('.requirement-row__toggle').trigger('click')
    expect(rowIds(wrapper)).toEqual(['a', 'b', 'b1', 'c'])
    expect(row(wrapper, 'a').attributes('aria-expanded')).toBe('false')
    await row(wrapper, 'a').get('.requirement-row__toggle').trigger('click')
    expect(rowIds(wrapper)).toHaveLength(7)
    await wrapper.get('[data-test="collapse-all"]').trigger('click')
    expect(rowIds(wrapper)).toEqual(['a', 'b', 'c'])
    await wrapper.get('[data-test="expand-all"]').trigger('click')
    expect(rowIds(wrapper)).toHaveLength(7)
    wrapper.unmount()
  })

  it('moves the focus with the arrow keys and opens and closes with → and ←', async () => {
    const wrapper = mountTree()
    await key(wrapper, 'a', 'ArrowDown')
    expect(document.activeElement?.getAttribute('data-id')).toBe('a1')
    await key(wrapper, 'a1', 'ArrowLeft') // expanded: collapses
    expect(rowIds(wrapper)).not.toContain('a1x')
    await key(wrapper, 'a1', 'ArrowLeft') // collapsed: to the parent
    expect(document.activeElement?.getAttribute('data-id')).toBe('a')
    expect(row(wrapper, 'a').attributes('tabindex')).toBe('0')
    expect(row(wrapper, 'a1').attributes('tabindex')).toBe('-1')
    await key(wrapper, 'a', 'ArrowDown')
    await key(wrapper, 'a1', 'ArrowRight') // collapsed: expands
    expect(rowIds(wrapper)).toContain('a1x')
    await key(wrapper, 'a1', 'ArrowRight') // expanded: to the first child
    expect(document.activeElement?.getAttribute('data-id')).toBe('a1x')
    await key(wrapper, 'a1x', 'End')
    expect(document.activeElement?.getAttribute('data-id')).toBe('c')
    expect(wrapper.emitted('select')?.at(-1)).toEqual(['c'])
    wrapper.unmount()
  })

  it('emits the moves Alt+arrow keys ask for', async () => {
    const wrapper = mountTree()
    await key(wrapper, 'a2', 'ArrowUp', { altKey: true })
    await key(wrapper, 'a1', 'ArrowDown', { altKey: true })
    await key(wrapper, 'a2', 'ArrowRight', { altKey: true })
    await key(wrapper, 'a1x', 'ArrowLeft', { altKey: true })
    await key(wrapper, 'a', 'ArrowUp', { altKey: true }) // nowhere to go
    expect(wrapper.emitted('move')).toEqual([
      [{ id: 'a2', parentId: 'a', position: 0 }],
      [{ id: 'a1', parentId: 'a', position: 1 }],
      [{ id: 'a2', parentId: 'a1', position: 1 }],
      [{ id: 'a1x', parentId: 'a', position: 1 }],
    ])
    wrapper.unmount()
  })

  it('keeps the focus on a requirement moved by keyboard once the new tree arrives', async () => {
    const wrapper = mountTree()
    await key(wrapper, 'a2', 'ArrowUp', { altKey: true })
    const [a, a1, a1x, a2, ...rest] = smallTree()
    await wrapper.setProps({ requirements: [a!, a2!, a1!, a1x!, ...rest] })
    await flushPromises()
    expect(rowIds(wrapper).slice(0, 3)).toEqual(['a', 'a2', 'a1'])
    expect(document.activeElement?.getAttribute('data-id')).toBe('a2')
    wrapper.unmount()
  })

  it('emits a move for a drop before, inside or after a row', async () => {
    const wrapper = mountTree()
    for (const [clientY, expected] of [
      [2, { id: 'c', parentId: 'a', position: 1 }], // top quarter: before a2
      [18, { id: 'c', parentId: 'a2', position: 0 }], // middle: inside a2
      [34, { id: 'c', parentId: 'a', position: 2 }], // bottom quarter: after a2
    ] as const) {
      const transfer = dataTransfer()
      await row(wrapper, 'c').trigger('dragstart', { dataTransfer: transfer })
      await row(wrapper, 'a2').trigger('dragover', { dataTransfer: transfer, clientY })
      expect(row(wrapper, 'a2').classes().some((c) => c.startsWith('is-drop-'))).toBe(true)
      await row(wrapper, 'a2').trigger('drop', { dataTransfer: transfer, clientY })
      expect(wrapper.emitted('move')?.at(-1)).toEqual([expected])
    }
    wrapper.unmount()
  })

  it('refuses to drop a requirement into its own subtree', async () => {
    const wrapper = mountTree()
    const transfer = dataTransfer()
    await row(wrapper, 'a').trigger('dragstart', { dataTransfer: transfer })
    const over = new Event('dragover', { bubbles: true, cancelable: true })
    Object.assign(over, { dataTransfer: transfer, clientY: 18 })
    row(wrapper, 'a1x').element.dispatchEvent(over)
    expect(over.defaultPrevented).toBe(false) // the browser shows "no drop"
    expect(transfer.dropEffect).toBe('none')
    await row(wrapper, 'a1x').trigger('drop', { dataTransfer: transfer, clientY: 18 })
    expect(wrapper.emitted('move')).toBeUndefined()
    wrapper.unmount()
  })

  it('moves a dragged requirement to the end of the top level', async () => {
    const wrapper = mountTree()
    const transfer = dataTransfer()
    await row(wrapper, 'a1').trigger('dragstart', { dataTransfer: transfer })
    await wrapper.get('[data-test="root-drop"]').trigger('drop', { dataTransfer: transfer })
    expect(wrapper.emitted('move')).toEqual([[{ id: 'a1', parentId: null, position: 3 }]])
    wrapper.unmount()
  })

  it('edits a row in place and emits only what changed', async () => {
    const wrapper = mountTree()
    await key(wrapper, 'a2', 'F2')
    const form = row(wrapper, 'a2').get('[data-test="requirement-edit"]')
    await form.get('[data-test="edit-name"]').setValue('Logging')
    await form.get('[data-test="edit-name"]').trigger('keydown', { key: 'Enter' })
    expect(wrapper.emitted('update')).toEqual([[{ id: 'a2', changes: { name: 'Logging' } }]])
    expect(wrapper.find('[data-test="requirement-edit"]').exists()).toBe(false)
    wrapper.unmount()
  })

  it('cancels an edit with Esc and refuses an empty identifier', async () => {
    const wrapper = mountTree()
    await key(wrapper, 'a', 'Enter')
    let form = row(wrapper, 'a').get('[data-test="requirement-edit"]')
    await form.get('[data-test="edit-identifier"]').setValue('  ')
    await form.get('[data-test="edit-save"]').trigger('click')
    expect(form.text()).toContain('Identifier and name are required.')
    await form.get('[data-test="edit-identifier"]').trigger('keydown', { key: 'Escape' })
    expect(wrapper.find('[data-test="requirement-edit"]').exists()).toBe(false)
    await row(wrapper, 'a').trigger('dblclick')
    form = row(wrapper, 'a').get('[data-test="requirement-edit"]')
    await form.get('[data-test="edit-cancel"]').trigger('click')
    expect(wrapper.emitted('update')).toBeUndefined()
    wrapper.unmount()
  })

  it('asks before deleting, naming the sub-requirements that go too', async () => {
    const confirm = vi.spyOn(ElMessageBox, 'confirm').mockResolvedValue('confirm' as never)
    const wrapper = mountTree()
    await key(wrapper, 'a', 'Delete')
    expect(confirm.mock.calls[0]?.[0]).toContain('Its 3 sub-requirements are deleted with it.')
    expect(wrapper.emitted('delete')).toEqual([['a']])
    confirm.mockRejectedValueOnce('cancel')
    await key(wrapper, 'c', 'Delete')
    expect(confirm.mock.calls[1]?.[0]).toBe('Delete V3 Name of V3?')
    expect(wrapper.emitted('delete')).toHaveLength(1)
    wrapper.unmount()
  })

  it('emits where to create a child, a sibling or a top-level requirement', async () => {
    const wrapper = mountTree()
    const tree = wrapper.findComponent(RequirementTree)
    const rowOf = (id: string) => tree.findAllComponents({ name: 'RequirementRow' }).find((r) => r.props('requirement').id === id)!
    rowOf('a').vm.$emit('command', 'addChild')
    rowOf('a1').vm.$emit('command', 'addSibling')
    await wrapper.get('[data-test="add-top-level"]').trigger('click')
    expect(wrapper.emitted('create')).toEqual([
      [{ parentId: 'a', position: 2 }],
      [{ parentId: 'a', position: 1 }],
      [{ parentId: null, position: 3 }],
    ])
    wrapper.unmount()
  })

  it('shows level membership as checkboxes and emits changes to it', async () => {
    const wrapper = mountTree({ selectedLevelId: 'l1' })
    const box = (id: string) => row(wrapper, id).get<HTMLInputElement>('[data-test="level-member"]')
    expect(box('a').element.checked).toBe(true)
    expect(box('a1x').element.checked).toBe(false)
    expect(box('a1x').attributes('aria-label')).toBe('V1.1.1 belongs to L1 Opportunistic')
    await box('a1x').setValue(true)
    await key(wrapper, 'a', ' ')
    expect(wrapper.emitted('toggle-level')).toEqual([
      [{ requirementId: 'a1x', levelId: 'l1', member: true }],
      [{ requirementId: 'a', levelId: 'l1', member: false }],
    ])
    await wrapper.get('[data-test="only-level"] input').setValue(true)
    expect(rowIds(wrapper)).toEqual(['a', 'a1', 'b', 'b1'])
    wrapper.unmount()
  })

  it('names an ASVS level once and says that its levels list only their own requirements', async () => {
    const asvsLevels = levels.map((level, i) => ({ ...level, identifier: `Level ${i + 1}`, title: `Level ${i + 1}` }))
    const disjoint = smallTree().map((r, i) => ({ ...r, levels: [i % 2 === 0 ? 'l1' : 'l2'] }))
    const wrapper = mountTree({ requirements: disjoint, levels: asvsLevels, selectedLevelId: 'l1' })
    expect(wrapper.get('[data-test="only-level"]').text()).toBe('Only requirements in Level 1')
    expect(wrapper.get('[data-test="levels-disjoint"]').text()).toContain('Level 1 does not include those of the levels below it')
    wrapper.unmount()

    const cumulative = smallTree().map((r) => ({ ...r, levels: ['l1', 'l2'] }))
    const other = mountTree({ requirements: cumulative, levels: asvsLevels, selectedLevelId: 'l2' })
    expect(other.find('[data-test="levels-disjoint"]').exists()).toBe(false)
    other.unmount()
  })

  it('filters by search, keeping ancestors, and marks the matches', async () => {
    const wrapper = mountTree()
    await wrapper.get('[data-test="collapse-all"]').trigger('click')
    await wrapper.get('[data-test="tree-search"]').setValue('1.1.1')
    expect(rowIds(wrapper)).toEqual(['a', 'a1', 'a1x'])
    expect(row(wrapper, 'a1x').get('mark').text()).toBe('1.1.1')
    expect(wrapper.text()).toContain('one match')
    await wrapper.get('[data-test="tree-search"]').setValue('nothing like it')
    expect(wrapper.text()).toContain('No requirement matches.')
    wrapper.unmount()
  })

  it('offers no editing when read-only', async () => {
    const confirm = vi.spyOn(ElMessageBox, 'confirm')
    const wrapper = mountTree({ editable: false, selectedLevelId: 'l1' })
    expect(wrapper.find('[data-test="row-menu"]').exists()).toBe(false)
    expect(wrapper.find('[data-test="add-top-level"]').exists()).toBe(false)
    expect(row(wrapper, 'a').attributes('draggable')).toBe('false')
    expect(row(wrapper, 'a').get<HTMLInputElement>('[data-test="level-member"]').element.disabled).toBe(true)
    await key(wrapper, 'a', 'F2')
    await key(wrapper, 'a', 'Delete')
    await key(wrapper, 'a2', 'ArrowUp', { altKey: true })
    await row(wrapper, 'a').trigger('dblclick')
    expect(wrapper.find('[data-test="requirement-edit"]').exists()).toBe(false)
    expect(confirm).not.toHaveBeenCalled()
    expect(wrapper.emitted('move')).toBeUndefined()
    wrapper.unmount()
  })

  it('asks for the details of a read-only row on a click or Enter', async () => {
    const wrapper = mountTree({ editable: false })
    await row(wrapper, 'a1').trigger('click')
    await key(wrapper, 'a', 'Enter')
    expect(wrapper.emitted('details')).toEqual([['a1'], ['a']])
    expect(wrapper.text()).toContain('press Enter on it to see its details')
    wrapper.unmount()
  })

  it('keeps Enter for editing an editable row; Alt+Enter and the row menu ask for the details', async () => {
    const wrapper = mountTree()
    await row(wrapper, 'a1').trigger('click')
    expect(wrapper.emitted('details')).toBeUndefined()
    await key(wrapper, 'a2', 'Enter', { altKey: true })
    expect(wrapper.find('[data-test="requirement-edit"]').exists()).toBe(false)
    wrapper.findAllComponents(RequirementRow).find((r) => r.props('requirement').id === 'b')!.vm.$emit('command', 'details')
    expect(wrapper.emitted('details')).toEqual([['a2'], ['b']])
    await key(wrapper, 'a', 'Enter')
    expect(wrapper.find('[data-test="requirement-edit"]').exists()).toBe(true)
    wrapper.unmount()
  })
})
