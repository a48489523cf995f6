import { flushPromises, mount } from '@vue/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import { createAppI18n } from '../../../app/i18n'
import TagForm from './TagForm.vue'

function mountForm(props: Record<string, unknown> = {}) {
  return mount(TagForm, { props, global: { plugins: [createAppI18n('en')] }, attachTo: document.body })
}

// Element Plus validates asynchronously and shows a field's error state 100 ms
// later (a debounce); let its promises and that timer settle.
async function settle(): Promise<void> {
  await flushPromises()
  await new Promise((resolve) => setTimeout(resolve, 150))
  await flushPromises()
}

async function submit(wrapper: ReturnType<typeof mountForm>): Promise<void> {
  await wrapper.get('form').trigger('submit')
  await settle()
}

function fieldErrors(wrapper: ReturnType<typeof mountForm>): string[] {
  return wrapper.findAll('.el-form-item__error').map((error) => error.text())
}

describe('TagForm', () => {
  afterEach(() => {
    document.body.innerHTML = ''
  })

  it('shows validation messages and does not submit an invalid tag', async () => {
    const wrapper = mountForm({ takenNames: ['pci'] })
    await submit(wrapper)
    expect(fieldErrors(wrapper)).toEqual(['Enter a name.'])
    await wrapper.get('input[data-test="tag-name"]').setValue('PCI')
    await submit(wrapper)
    expect(fieldErrors(wrapper)).toEqual(['Another tag has this name already.'])
    expect(wrapper.emitted('submit')).toBeUndefined()
  })

  it('emits the cleaned tag with the chosen colour', async () => {
    const wrapper = mountForm()
    await wrapper.get('input[data-test="tag-name"]').setValue('  gdpr ')
    await wrapper.get('[data-color="#0d9488"]').trigger('click')
    await wrapper.get('textarea[data-test="tag-description"]').setValue('Personal data')
    expect(wrapper.get('[data-test="tag-chip"]').text()).toBe('gdpr')
    await submit(wrapper)
    expect(wrapper.emitted('submit')).toEqual([[{ name: 'gdpr', color: '#0d9488', description: 'Personal data' }]])
  })

  it('edits an existing tag, whose own name is not taken, and shows server messages', async () => {
    const wrapper = mountForm({
      tag: { name: 'pci', color: '#ef4444', description: '' },
      takenNames: ['pci', 'gdpr'],
      serverErrors: { name: 'A tag with this name exists already.' },
    })
    await settle()
    expect(fieldErrors(wrapper)).toEqual(['A tag with this name exists already.'])
    expect((wrapper.get('input[data-test="tag-name"]').element as HTMLInputElement).value).toBe('pci')
    expect(wrapper.get('[data-test="tag-submit"]').text()).toBe('Save')
    await submit(wrapper)
    expect(wrapper.emitted('submit')).toEqual([[{ name: 'pci', color: '#ef4444', description: '' }]])
  })

  it('emits cancel', async () => {
    const wrapper = mountForm()
    const cancel = wrapper.findAll('button').find((button) => button.text() === 'Cancel')
    await cancel!.trigger('click')
    expect(wrapper.emitted('cancel')).toHaveLength(1)
  })
})
