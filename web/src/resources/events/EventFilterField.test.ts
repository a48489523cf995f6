import { mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { defineComponent, h, ref } from 'vue'
import { createAppI18n } from '../../app/i18n'
import EventFilterField from './EventFilterField.vue'
import { catalogue } from './fixtures'

// mountField renders the field bound to a ref, as a form would.
function mountField(initial: string[], offered?: typeof catalogue) {
  const entries = ref(initial)
  const Host = defineComponent(() => () =>
    h(EventFilterField, {
      modelValue: entries.value,
      'onUpdate:modelValue': (value: string[]) => (entries.value = value),
      catalogue,
      offered,
      label: 'Events',
    }),
  )
  const wrapper = mount(Host, { global: { plugins: [createAppI18n('en')] } })
  return { wrapper, entries }
}

function checkbox(wrapper: ReturnType<typeof mountField>['wrapper'], text: string) {
  const label = wrapper.findAll('label.el-checkbox').find((item) => item.text().startsWith(text))
  if (!label) throw new Error(`no checkbox ${text}`)
  return label
}

// legends lists the category checkboxes' labels.
function legends(wrapper: ReturnType<typeof mountField>['wrapper']): string[] {
  return wrapper.findAll('legend .el-checkbox__label').map((label) => label.text())
}

describe('the event filter field', () => {
  it('offers all events, or categories with their types', async () => {
    const { wrapper, entries } = mountField(['*'])
    expect(wrapper.find('fieldset').exists()).toBe(false)
    await wrapper.findAll('input[type="radio"]')[1]!.setValue(true)
    expect(entries.value).toEqual([])
    expect(legends(wrapper)).toEqual(['Users', 'API keys', 'Channels'])
  })

  it('selects a whole category with its checkbox, written as "<category>.*"', async () => {
    const { wrapper, entries } = mountField(['channel.test'])
    await checkbox(wrapper, 'Users').get('input').setValue(true)
    expect(entries.value).toEqual(['channel.test', 'user.*'])
    await checkbox(wrapper, 'User updated').get('input').setValue(false)
    expect(entries.value).toEqual(['channel.test', 'user.created'])
    expect(checkbox(wrapper, 'Users').find('.is-indeterminate').exists()).toBe(true)
  })

  it('offers only the types given and no "all events" then', () => {
    const offered = catalogue.filter((type) => type.category === 'user')
    const { wrapper } = mountField([], offered)
    expect(wrapper.find('input[type="radio"]').exists()).toBe(false)
    expect(legends(wrapper)).toEqual(['Users'])
  })
})
