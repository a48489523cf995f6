import { flushPromises, mount } from '@vue/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import { createAppI18n } from '../../app/i18n'
import type { TagOption } from './tag'
import TagSelect from './TagSelect.vue'

const options: TagOption[] = [
  { id: 'tg_pci', name: 'pci', color: '#ef4444' },
  { id: 'tg_gdpr', name: 'gdpr', color: '#2563eb' },
  { id: 'tg_bad', name: 'legacy', color: 'not-a-colour' },
]

function mountSelect(modelValue: string[] = []) {
  return mount(TagSelect, {
    props: { options, modelValue },
    global: { plugins: [createAppI18n('en')] },
    attachTo: document.body,
  })
}

// optionItems are the dropdown's entries; Element Plus teleports them to <body>.
function optionItems(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>('[data-test="tag-option"]')]
}

describe('TagSelect', () => {
  afterEach(() => {
    document.body.innerHTML = ''
  })

  it('emits the ids of the chosen tags', async () => {
    const wrapper = mountSelect(['tg_gdpr'])
    await wrapper.get('.el-select__wrapper').trigger('click')
    await flushPromises()
    const pci = optionItems().find((item) => item.textContent?.includes('pci'))
    pci?.click()
    await flushPromises()
    expect(wrapper.emitted('update:modelValue')).toEqual([[['tg_gdpr', 'tg_pci']]])
    wrapper.unmount()
  })

  it('emits the list without a tag whose chip is closed', async () => {
    const wrapper = mountSelect(['tg_gdpr', 'tg_pci'])
    await flushPromises()
    await wrapper.findAll('.el-tag__close')[0]!.trigger('click')
    expect(wrapper.emitted('update:modelValue')).toEqual([[['tg_pci']]])
    wrapper.unmount()
  })

  it('shows each option and each chosen tag with a dot of its colour', async () => {
    const wrapper = mountSelect(['tg_pci'])
    await wrapper.get('.el-select__wrapper').trigger('click')
    await flushPromises()
    const dots = optionItems().map((item) => item.querySelector<HTMLElement>('.tag-select__dot')?.style.background)
    expect(dots).toEqual(['rgb(239, 68, 68)', 'rgb(37, 99, 235)', 'rgb(79, 70, 229)'])
    const chosen = wrapper.get('.el-select__selected-item .tag-select__dot').element as HTMLElement
    expect(chosen.style.background).toBe('rgb(239, 68, 68)')
    expect(wrapper.get('.el-select__selected-item').text()).toBe('pci')
    wrapper.unmount()
  })

  it('is filterable and labelled', () => {
    const wrapper = mountSelect()
    const input = wrapper.get('input')
    expect(input.attributes('readonly')).toBeUndefined()
    expect(wrapper.find('[aria-label="Tags"]').exists()).toBe(true)
    wrapper.unmount()
  })
})
