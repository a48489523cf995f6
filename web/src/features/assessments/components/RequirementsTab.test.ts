import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { createAppI18n } from '../../../app/i18n'
import { signedInAdmin } from '../../../app/session/fixtures'
import { nameStartsWithLabel } from '../../../app/testing'
import { useSessionStore } from '../../../app/session/store'
import { listRequirements, saveResult } from '../api'
import { anAssessment, aRequirement } from '../fixtures'
import type { AssessmentRequirement } from '../types'
import RequirementsTab from './RequirementsTab.vue'

vi.mock('../api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api')>()),
  listRequirements: vi.fn(),
  saveResult: vi.fn(),
  fetchRequirement: vi.fn(),
  listEvidence: vi.fn(async () => ({ items: [], hasMore: false })),
}))

const LONG = 'This rationale explains in enough words what was checked and which evidence shows the requirement is met today.'

async function mountTab(
  requirements: AssessmentRequirement[],
  permissions = ['assessments.view', 'assessments.edit'],
  rationaleMinWords = 15,
  at = '/',
  locale: 'en' | 'de' = 'en',
) {
  const pinia = createPinia()
  setActivePinia(pinia)
  useSessionStore().me = { ...signedInAdmin, permissions }
  vi.mocked(listRequirements).mockResolvedValue({ items: requirements, rationaleMinWords })
  const router = createRouter({ history: createMemoryHistory(), routes: [{ path: '/:p(.*)*', component: { template: '<p />' } }] })
  await router.push(at)
  const wrapper = mount(RequirementsTab, {
    attachTo: document.body,
    props: { assessment: anAssessment(), readOnly: false, preset: null },
    global: { plugins: [pinia, router, createAppI18n(locale)] },
  })
  await flushPromises()
  return wrapper
}

const treeItems = (wrapper: VueWrapper) => wrapper.findAll('[role="treeitem"]')
const focusedId = () => (document.activeElement as HTMLElement | null)?.dataset.id

async function press(wrapper: VueWrapper, key: string) {
  const target = (document.activeElement as HTMLElement | null) ?? wrapper.get('[role="treeitem"]').element
  target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }))
  await flushPromises()
}

describe('RequirementsTab', () => {
  beforeEach(() => {
    vi.mocked(saveResult).mockReset()
    document.body.innerHTML = ''
  })

  it('opens the requirement a link names (?requirement=, from the timeline or the audit log)', async () => {
    const wrapper = await mountTab([aRequirement('a'), aRequirement('b')], undefined, 15, '/assessments/as_1?tab=requirements&requirement=b')
    expect(wrapper.get('[data-test="requirement-editor"]').text()).toContain('Requirement b')
    wrapper.unmount()
  })

  it('shows the tree by standard and chapter with ARIA roles, and the progress', async () => {
    const wrapper = await mountTab([aRequirement('a', { result: 'yes', rationale: LONG }), aRequirement('b')])
    expect(wrapper.find('[role="tree"]').exists()).toBe(true)
    const items = treeItems(wrapper)
    const cell = (item: (typeof items)[number], name: string) => {
      const found = item.find(`.tree-row__${name}`)
      return found.exists() ? found.text() : ''
    }
    expect(items.map((item) => [item.attributes('aria-level'), cell(item, 'identifier'), cell(item, 'name'), cell(item, 'count')])).toEqual([
      ['1', '5.0.0 · L1', 'OWASP ASVS', '1/2'],
      ['2', 'V1', 'Encoding', '1/2'],
      ['3', 'V1.1', 'Architecture', '1/2'],
      ['4', 'A', 'Requirement a', ''],
      ['4', 'B', 'Requirement b', ''],
    ])
    expect(items[0]!.attributes('aria-expanded')).toBe('true')
    expect(wrapper.get('[data-test="progress-summary"]').text()).toContain('1 of 2 answered')
  })

  it('renders only the rows in view for a large assessment', async () => {
    const many = Array.from({ length: 350 }, (_, i) => aRequirement(`r${i}`))
    const wrapper = await mountTab(many)
    expect(treeItems(wrapper).length).toBeLessThan(40)
    expect(wrapper.get('[data-test="progress-summary"]').text()).toContain('0 of 350 answered')
  })

  it('shows the keyboard hint beside one-line rows on a wide screen', async () => {
    const wrapper = await mountTab([aRequirement('a')])
    expect(wrapper.get('[data-test="requirement-tree"]').classes()).not.toContain('is-stacked')
    expect(wrapper.get('[data-test="requirement-row"]').attributes('style')).toContain('height: 44px')
    expect(wrapper.get('[data-test="keyboard-hint"]').text()).toContain('Enter edits')
    expect(wrapper.get('[data-test="requirement-tree"]').attributes('aria-describedby')).toBe(wrapper.get('[data-test="keyboard-hint"]').attributes('id'))
  })

  it('stacks the text of a requirement above its result on a phone, and leaves out the keyboard hint', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: /max-width: (600|960)px/.test(query), media: query, addEventListener() {}, removeEventListener() {} }))
    try {
      const long = 'Verify that the application encodes output for the context it is sent to, whatever the interpreter is.'
      const many = Array.from({ length: 100 }, (_, i) => aRequirement(`r${i}`, { name: '', description: long }))
      const wrapper = await mountTab(many)
      const tree = wrapper.get('[data-test="requirement-tree"]')
      expect(tree.classes()).toContain('is-stacked')
      const row = wrapper.get('[data-test="requirement-row"]')
      expect(row.attributes('style')).toContain('height: 100px') // three lines of text and the result's line
      expect(row.get('.tree-row__name').text()).toBe(long)
      expect(row.find('.tree-row__controls [data-test="row-result"]').exists()).toBe(true)
      expect(wrapper.get('[data-test="group-row"]').attributes('style')).toContain('height: 44px')
      expect(treeItems(wrapper).length).toBeLessThan(30) // still windowed, by the taller rows
      expect(wrapper.find('[data-test="keyboard-hint"]').exists()).toBe(false)
      expect(tree.attributes('aria-describedby')).toBeUndefined()
    } finally {
      vi.unstubAllGlobals()
    }
  })

  it('leaves out the keyboard hint on a touch screen', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query.includes('pointer: coarse'), media: query, addEventListener() {}, removeEventListener() {} }))
    try {
      const wrapper = await mountTab([aRequirement('a')])
      expect(wrapper.find('[data-test="keyboard-hint"]').exists()).toBe(false)
      expect(wrapper.get('[data-test="requirement-tree"]').classes()).not.toContain('is-stacked')
    } finally {
      vi.unstubAllGlobals()
    }
  })

  it('moves with the arrow keys, closes chapters with ←, and opens the editor with Enter; Esc returns to the row', async () => {
    const wrapper = await mountTab([aRequirement('a'), aRequirement('b')])
    ;(treeItems(wrapper)[0]!.element as HTMLElement).focus()
    await press(wrapper, 'ArrowDown')
    await press(wrapper, 'ArrowDown')
    await press(wrapper, 'ArrowDown')
    expect(focusedId()).toBe('a')
    await press(wrapper, 'ArrowDown')
    expect(focusedId()).toBe('b')
    await press(wrapper, 'ArrowLeft')
    expect(treeItems(wrapper)[2]!.element).toBe(document.activeElement)
    await press(wrapper, 'ArrowLeft')
    expect(treeItems(wrapper).map((item) => item.attributes('data-id'))).not.toContain('a')
    await press(wrapper, 'ArrowRight')
    await press(wrapper, 'ArrowRight')
    expect(focusedId()).toBe('a')
    await press(wrapper, 'Enter')
    const editor = wrapper.get('[data-test="requirement-editor"]')
    expect(editor.text()).toContain('Requirement a')
    editor.element.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))
    await flushPromises()
    expect(wrapper.find('[data-test="requirement-editor"]').exists()).toBe(false)
    expect(focusedId()).toBe('a')
  })

  it('keeps the keyboard focus in the tree when PageDown or the wheel moves the active row out of view', async () => {
    const many = Array.from({ length: 350 }, (_, i) => aRequirement(`r${i}`))
    const wrapper = await mountTab(many)
    const tree = wrapper.get('[role="tree"]').element as HTMLElement
    ;(treeItems(wrapper)[3]!.element as HTMLElement).focus()
    expect(focusedId()).toBe('r0')
    for (let i = 0; i < 6; i++) await press(wrapper, 'PageDown')
    expect(focusedId()).toBe('r66')
    expect(tree.contains(document.activeElement)).toBe(true)

    // The wheel scrolls the active row out of the rendered window: the tree keeps the focus.
    tree.scrollTop = 200 * 44
    tree.dispatchEvent(new Event('scroll'))
    await flushPromises()
    expect(treeItems(wrapper).map((item) => item.attributes('data-id'))).not.toContain('r66')
    expect(document.activeElement).toBe(tree)
    // Keys still act on the active row, which comes back into view focused.
    await press(wrapper, 'ArrowDown')
    expect(focusedId()).toBe('r67')

    // Scrolled away and back by the wheel, the focus returns to the row.
    tree.scrollTop = 300 * 44
    tree.dispatchEvent(new Event('scroll'))
    await flushPromises()
    expect(document.activeElement).toBe(tree)
    tree.scrollTop = 60 * 44
    tree.dispatchEvent(new Event('scroll'))
    await flushPromises()
    expect(focusedId()).toBe('r67')
    wrapper.unmount()
  })

  it('keeps the filters in the URL: they start from it and every change replaces it', async () => {
    const wrapper = await mountTab(
      [aRequirement('a', { result: 'no', rationale: LONG }), aRequirement('b'), aRequirement('c', { result: 'yes', rationale: LONG })],
      undefined,
      15,
      '/assessments/as_1?tab=requirements&result=no',
    )
    const router = (wrapper.vm as unknown as { $router: import('vue-router').Router }).$router
    expect(treeItems(wrapper).map((item) => item.attributes('data-id'))).toContain('a')
    expect(treeItems(wrapper).map((item) => item.attributes('data-id'))).not.toContain('b')
    await wrapper.get('[data-test="filter-unanswered"] input').setValue(true)
    await flushPromises()
    expect(router.currentRoute.value.query).toMatchObject({ tab: 'requirements', result: 'no', unanswered: '1' })
    await wrapper.get('input[data-test="requirements-search"]').setValue('Requirement b')
    await flushPromises()
    expect(router.currentRoute.value.query.q).toBe('Requirement b')
    // Back (or a link) changes the URL: the filters follow it.
    await router.replace({ query: { tab: 'requirements', unanswered: '1' } })
    await flushPromises()
    expect((wrapper.get('input[data-test="requirements-search"]').element as HTMLInputElement).value).toBe('')
    expect(treeItems(wrapper).map((item) => item.attributes('data-id'))).toEqual(expect.arrayContaining(['b']))
    expect(treeItems(wrapper).map((item) => item.attributes('data-id'))).not.toContain('a')
    wrapper.unmount()
  })

  it('counts the rationale words live against the minimum', async () => {
    const wrapper = await mountTab([aRequirement('a')])
    await wrapper.get('[data-id="a"]').trigger('click')
    const counter = () => wrapper.get('[data-test="word-counter"]').text()
    expect(counter()).toContain('0 / 15 words')
    await wrapper.get('textarea[data-test="editor-rationale"]').setValue('one two three')
    expect(counter()).toContain('3 / 15 words')
    expect(wrapper.text()).toContain('A result needs a rationale of at least 15 words.')
  })

  it('takes the minimum from the server', async () => {
    const strict = await mountTab([aRequirement('a', { rationale: 'one two three' })], undefined, 20)
    await strict.get('[data-id="a"]').trigger('click')
    expect(strict.get('[data-test="word-counter"]').text()).toContain('3 / 20 words')
    expect(strict.text()).toContain('at least 20 words')
  })

  it('only counts the words when the server sets no minimum', async () => {
    const free = await mountTab([aRequirement('a', { rationale: 'one' })], undefined, 0)
    await free.get('[data-id="a"]').trigger('click')
    expect(free.get('[data-test="word-counter"]').text()).toBe('1 word')
    expect(free.text()).not.toContain('A result needs a rationale')
  })

  it('records a result picked in a row at once when the rationale suffices', async () => {
    const requirement = aRequirement('a', { rationale: LONG, version: 3 })
    vi.mocked(saveResult).mockResolvedValue({ ...requirement, result: 'no', version: 4 })
    const wrapper = await mountTab([requirement])
    await wrapper.get('[data-test="row-result"]').setValue('no')
    await flushPromises()
    expect(saveResult).toHaveBeenCalledWith('as_1', 'a', { version: 3, result: 'no', rationale: LONG })
    expect((wrapper.get('[data-test="row-result"]').element as HTMLSelectElement).value).toBe('no')
  })

  it('opens the editor with the picked result when the rationale is too short, and the number keys pick results', async () => {
    const wrapper = await mountTab([aRequirement('a', { rationale: 'too short' })])
    ;(wrapper.get('[data-id="a"]').element as HTMLElement).focus()
    await press(wrapper, '2')
    expect(saveResult).not.toHaveBeenCalled()
    const editor = wrapper.get('[data-test="requirement-editor"]')
    expect(editor.get('[data-test="editor-result"] .is-active').text()).toBe('Partial')
    expect(editor.get('[data-test="word-counter"]').text()).toBe('2 / 15 words · 13 more words needed')
  })

  it('filters unanswered requirements and those without evidence', async () => {
    const wrapper = await mountTab([aRequirement('a', { result: 'yes', rationale: LONG, evidenceCount: 1 }), aRequirement('b')])
    await wrapper.get('[data-test="filter-unanswered"] input').setValue(true)
    expect(treeItems(wrapper).map((item) => item.attributes('data-id'))).not.toContain('a')
    expect(wrapper.text()).toContain('1 of 2')
  })

  it.each([
    ['en', ['0 pieces of evidence linked – open the evidence panel', '1 piece of evidence linked – open the evidence panel', '12 pieces of evidence linked – open the evidence panel']],
    ['de', ['0 Nachweise verknüpft – Nachweise öffnen', '1 Nachweis verknüpft – Nachweise öffnen', '12 Nachweise verknüpft – Nachweise öffnen']],
  ] as const)('names each evidence button beginning with the count it shows (%s)', async (locale, names) => {
    const wrapper = await mountTab(
      [aRequirement('a'), aRequirement('b', { evidenceCount: 1 }), aRequirement('c', { evidenceCount: 12 })],
      undefined,
      15,
      '/',
      locale,
    )
    // The buttons show only a number: "No evidence linked" and "One piece of evidence" named
    // a "0" and a "1" without saying them (WCAG 2.5.3, Label in Name).
    const buttons = wrapper.findAll('[data-test="row-evidence"]')
    expect(buttons.map((b) => b.text())).toEqual(['0', '1', '12'])
    expect(buttons.map((b) => b.attributes('aria-label'))).toEqual(names)
    for (const button of buttons) expect(nameStartsWithLabel(button.element.textContent ?? '', button.attributes('aria-label'))).toBe(true)
    wrapper.unmount()
  })

  it('reads the list again when evidence was linked elsewhere (the Evidence tab), so the paperclip counts are right', async () => {
    vi.mocked(listRequirements).mockClear()
    const wrapper = await mountTab([aRequirement('a', { evidenceCount: 1 }), aRequirement('b')])
    expect(listRequirements).toHaveBeenCalledTimes(1)
    vi.mocked(listRequirements).mockResolvedValue({ items: [aRequirement('a', { evidenceCount: 1 }), aRequirement('b', { evidenceCount: 1 })], rationaleMinWords: 15 })
    const base = anAssessment()
    await wrapper.setProps({ assessment: { ...base, progress: { ...base.progress, withEvidence: 2 } } })
    await flushPromises()
    expect(listRequirements).toHaveBeenCalledTimes(2)
    expect(wrapper.findAll('[data-test="row-evidence"]').map((button) => button.text())).toEqual(['1', '1'])
    await wrapper.setProps({ assessment: { ...base, version: 5, progress: { ...base.progress, withEvidence: 2 } } })
    await flushPromises()
    expect(listRequirements).toHaveBeenCalledTimes(2) // the list already agrees
  })

  it('is read-only without the edit permission', async () => {
    const wrapper = await mountTab([aRequirement('a')], ['assessments.view'])
    expect(wrapper.get('[data-test="row-result"]').attributes('disabled')).toBeDefined()
  })

  it.each([
    ['en', 'Only assessors record results.'],
    ['de', 'Nur Prüfer erfassen Ergebnisse.'],
  ] as const)('says why a viewer without the edit permission cannot record results, and shows the editor read-only (%s)', async (locale, note) => {
    const wrapper = await mountTab([aRequirement('a')], ['assessments.view'], 15, '/', locale)
    await wrapper.get('[data-id="a"]').trigger('click')
    expect(wrapper.get('[data-test="editor-read-only-note"]').text()).toBe(note)
    expect(wrapper.get('.requirement-editor__results').classes()).toContain('is-read-only')
    expect(wrapper.get('.requirement-editor__rationale--read-only textarea').attributes('readonly')).toBeDefined()
  })

  it('shows no such note to an assessor', async () => {
    const wrapper = await mountTab([aRequirement('a')])
    await wrapper.get('[data-id="a"]').trigger('click')
    expect(wrapper.find('[data-test="editor-read-only-note"]').exists()).toBe(false)
    expect(wrapper.find('.requirement-editor__rationale--read-only').exists()).toBe(false)
  })
})
