import { flushPromises, mount } from '@vue/test-utils'
import { beforeEach, describe, expect, it } from 'vitest'
import { createAppI18n } from '../../../app/i18n'
import ReasonDialog from './ReasonDialog.vue'

function mountDialog() {
  return mount(ReasonDialog, {
    attachTo: document.body,
    props: { modelValue: true, title: 'Reject ASVS', intro: 'Back to draft.', danger: true },
    global: { plugins: [createAppI18n('en')] },
  })
}

function input(): HTMLTextAreaElement {
  return document.querySelector<HTMLTextAreaElement>('[data-test="reason-input"]')!
}
async function click(test: string) {
  document.querySelector<HTMLButtonElement>(`[data-test="${test}"]`)!.click()
  await flushPromises()
  // The form item shows its error after a short debounce.
  await new Promise((resolve) => setTimeout(resolve, 150))
}
async function type(text: string) {
  input().value = text
  input().dispatchEvent(new Event('input'))
  await flushPromises()
}

describe('ReasonDialog', () => {
  beforeEach(() => {
    document.body.innerHTML = ''
  })

  it('refuses an empty or blank reason', async () => {
    const wrapper = mountDialog()
    await flushPromises()
    await click('reason-confirm')
    expect(document.body.textContent).toContain('A reason is required.')
    await type('   ')
    await click('reason-confirm')
    expect(wrapper.emitted('confirm')).toBeUndefined()
    wrapper.unmount()
  })

  it('emits the trimmed reason and counts characters against the limit', async () => {
    const wrapper = mountDialog()
    await flushPromises()
    expect(input().maxLength).toBe(2000)
    await type('  Levels are missing.  ')
    expect(document.body.textContent).toContain('23 / 2000')
    await click('reason-confirm')
    expect(wrapper.emitted('confirm')).toEqual([['Levels are missing.']])
    expect(wrapper.emitted('update:modelValue')).toBeUndefined() // the page closes it once done
    wrapper.unmount()
  })

  it('refuses a reason longer than the limit', async () => {
    const wrapper = mountDialog()
    await wrapper.setProps({ maxLength: 5 })
    await flushPromises()
    await type('too long')
    await click('reason-confirm')
    expect(document.body.textContent).toContain('At most 5 characters.')
    expect(wrapper.emitted('confirm')).toBeUndefined()
    wrapper.unmount()
  })

  it('starts empty each time it opens, and cancels', async () => {
    const wrapper = mountDialog()
    await flushPromises()
    await type('first try')
    await click('reason-cancel')
    expect(wrapper.emitted('update:modelValue')).toEqual([[false]])
    await wrapper.setProps({ modelValue: false })
    await wrapper.setProps({ modelValue: true })
    await flushPromises()
    expect(input().value).toBe('')
    wrapper.unmount()
  })
})
