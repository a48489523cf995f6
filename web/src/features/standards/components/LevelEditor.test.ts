import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { ElMessageBox } from 'element-plus'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createAppI18n } from '../../../app/i18n'
import { levels } from './fixtures'
import LevelEditor from './LevelEditor.vue'
import StandardStateTag from './StandardStateTag.vue'

function mountEditor(props: { editable?: boolean; selectedId?: string | null } = {}) {
  return mount(LevelEditor, {
    attachTo: document.body,
    props: { levels, editable: true, ...props },
    global: { plugins: [createAppI18n('en')] },
  })
}

async function fill(wrapper: VueWrapper, identifier: string, title: string) {
  await wrapper.get('[data-test="level-identifier"]').setValue(identifier)
  await wrapper.get('[data-test="level-title"]').setValue(title)
}

describe('LevelEditor', () => {
  beforeEach(() => {
    document.body.innerHTML = ''
  })

  it('lists levels with their requirement counts and selects one', async () => {
    const wrapper = mountEditor({ selectedId: 'l2' })
    const buttons = wrapper.findAll('[data-test="level-select"]')
    expect(buttons[0]!.text()).toContain('3 requirements')
    expect(buttons[1]!.text()).toContain('no requirements')
    expect(buttons[1]!.attributes('aria-pressed')).toBe('true')
    await buttons[0]!.trigger('click')
    await buttons[1]!.trigger('click')
    expect(wrapper.emitted('select')).toEqual([['l1'], [null]])
    wrapper.unmount()
  })

  it('names a level whose title repeats its identifier once (ASVS "Level 1")', () => {
    const wrapper = mount(LevelEditor, {
      props: { levels: [{ ...levels[0]!, identifier: 'Level 1', title: 'Level 1' }, levels[1]!], editable: false },
      global: { plugins: [createAppI18n('en')] },
    })
    const [asvs, other] = wrapper.findAll('[data-test="level-select"]')
    expect(asvs!.text()).toMatch(/^Level 1\s*3 requirements/)
    expect(other!.text()).toContain('L2')
    expect(other!.text()).toContain('Standard')
    wrapper.unmount()
  })

  it('adds a level, requiring an identifier', async () => {
    const wrapper = mountEditor()
    await wrapper.get('[data-test="level-add"]').trigger('click')
    await wrapper.get('[data-test="level-save"]').trigger('click')
    expect(wrapper.text()).toContain('An identifier is required.')
    await fill(wrapper, ' L3 ', 'Advanced')
    await wrapper.get('[data-test="level-title"]').trigger('keydown', { key: 'Enter' })
    expect(wrapper.emitted('create')).toEqual([[{ identifier: 'L3', title: 'Advanced', description: '' }]])
    expect(wrapper.find('[data-test="level-form"]').exists()).toBe(false)
    wrapper.unmount()
  })

  it('edits a level in place, emitting only what changed, and deletes after asking', async () => {
    const confirm = vi.spyOn(ElMessageBox, 'confirm').mockResolvedValue('confirm' as never)
    const wrapper = mountEditor()
    // The row menu's "Edit" and "Delete" entries.
    wrapper.findAllComponents({ name: 'ElDropdown' })[0]!.vm.$emit('command', 'edit')
    await flushPromises()
    await wrapper.get('[data-test="level-title"]').setValue('Basic')
    await wrapper.get('[data-test="level-save"]').trigger('click')
    expect(wrapper.emitted('update')).toEqual([[{ id: 'l1', changes: { title: 'Basic' } }]])
    wrapper.findAllComponents({ name: 'ElDropdown' })[1]!.vm.$emit('command', 'delete')
    await flushPromises()
    expect(confirm.mock.calls[0]?.[0]).toContain('Delete level L2?')
    expect(wrapper.emitted('delete')).toEqual([['l2']])
    wrapper.unmount()
  })

  it('offers no changes when read-only', () => {
    const wrapper = mountEditor({ editable: false })
    expect(wrapper.find('[data-test="level-add"]').exists()).toBe(false)
    expect(wrapper.find('[data-test="level-menu"]').exists()).toBe(false)
    expect(wrapper.findAll('[data-test="level-select"]')).toHaveLength(2)
    wrapper.unmount()
  })
})

describe('StandardStateTag', () => {
  it.each([
    ['draft', 'Draft', 'Entwurf', 'info'],
    ['in_review', 'In review', 'In Prüfung', 'warning'],
    ['published', 'Published', 'Veröffentlicht', 'success'],
    ['retired', 'Retired', 'Zurückgezogen', 'danger'],
  ] as const)('shows %s as a coloured, translated tag', (state, english, german, type) => {
    const en = mount(StandardStateTag, { props: { state }, global: { plugins: [createAppI18n('en')] } })
    expect(en.text()).toBe(english)
    expect(en.classes()).toContain(`el-tag--${type}`)
    const de = mount(StandardStateTag, { props: { state }, global: { plugins: [createAppI18n('de')] } })
    expect(de.text()).toBe(german)
  })
})
