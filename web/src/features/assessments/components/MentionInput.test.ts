import { mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { ref } from 'vue'
import { createAppI18n } from '../../../app/i18n'
import { ada, bob } from '../fixtures'
import MentionInput from './MentionInput.vue'

function mountInput() {
  const text = ref('')
  const wrapper = mount(MentionInput, {
    attachTo: document.body,
    props: { users: [ada, bob], label: 'Note', modelValue: text.value, 'onUpdate:modelValue': (value: string) => wrapper.setProps({ modelValue: value }) },
    global: { plugins: [createAppI18n('en')] },
  })
  return wrapper
}

async function type(wrapper: ReturnType<typeof mountInput>, value: string) {
  const area = wrapper.get('textarea')
  ;(area.element as HTMLTextAreaElement).value = value
  ;(area.element as HTMLTextAreaElement).setSelectionRange(value.length, value.length)
  await area.trigger('input')
}

describe('MentionInput', () => {
  it('offers matching users after @ as a listbox and inserts the chosen one with the keyboard', async () => {
    const wrapper = mountInput()
    await type(wrapper, 'please ask @')
    const area = wrapper.get('textarea')
    expect(area.attributes('aria-expanded')).toBe('true')
    expect(wrapper.findAll('[role="option"]').map((o) => o.text())).toEqual(['@adaAda Lovelace', '@bob.bBob Builder'])
    await area.trigger('keydown', { key: 'ArrowDown' })
    expect(area.attributes('aria-activedescendant')).toBe(wrapper.findAll('[role="option"]')[1]!.attributes('id'))
    await area.trigger('keydown', { key: 'Enter' })
    expect(wrapper.props('modelValue')).toBe('please ask @bob.b ')
  })

  it('narrows by what follows the @ and closes on Escape', async () => {
    const wrapper = mountInput()
    await type(wrapper, '@lov')
    expect(wrapper.findAll('[role="option"]').map((o) => o.text())).toEqual(['@adaAda Lovelace'])
    await wrapper.get('textarea').trigger('keydown', { key: 'Escape' })
    expect(wrapper.get('textarea').attributes('aria-expanded')).toBe('false')
  })

  it('does not treat an e-mail address as a mention', async () => {
    const wrapper = mountInput()
    await type(wrapper, 'write to ada@')
    expect(wrapper.get('textarea').attributes('aria-expanded')).toBe('false')
  })
})
