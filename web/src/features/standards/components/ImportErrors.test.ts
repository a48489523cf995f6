import { flushPromises, mount } from '@vue/test-utils'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createAppI18n } from '../../../app/i18n'
import type { ImportError } from '../types'
import ImportErrors from './ImportErrors.vue'

const errors: ImportError[] = Array.from({ length: 14 }, (_, i) => ({
  path: `$.definitions.standards[0].requirements[${i}].identifier`,
  message: `Identifier ${i} is missing`,
}))

function mountErrors(list: ImportError[]) {
  return mount(ImportErrors, { props: { errors: list }, global: { plugins: [createAppI18n('en')] } })
}

describe('ImportErrors', () => {
  beforeEach(() => {
    document.body.innerHTML = ''
  })

  it('shows the first ten errors and the rest on "show all"', async () => {
    const wrapper = mountErrors(errors)
    expect(wrapper.text()).toContain('The file has 14 errors.')
    expect(wrapper.findAll('[data-test="import-error"]')).toHaveLength(10)
    await wrapper.get('[data-test="show-all"]').trigger('click')
    expect(wrapper.findAll('[data-test="import-error"]')).toHaveLength(14)
    expect(wrapper.text()).toContain('Identifier 13 is missing')
    await wrapper.get('[data-test="show-fewer"]').trigger('click')
    expect(wrapper.findAll('[data-test="import-error"]')).toHaveLength(10)
  })

  it('shows a short list whole, with the path in monospace', () => {
    const wrapper = mountErrors(errors.slice(0, 3).concat({ path: '', message: 'Not JSON' }))
    expect(wrapper.findAll('[data-test="import-error"]')).toHaveLength(4)
    expect(wrapper.find('[data-test="show-all"]').exists()).toBe(false)
    expect(wrapper.get('code').text()).toBe('$.definitions.standards[0].requirements[0].identifier')
    expect(wrapper.text()).toContain('(the whole document)')
    expect(wrapper.findAll('[data-test="copy-path"]')).toHaveLength(3)
  })

  it('copies a path', async () => {
    const writeText = vi.fn(async () => {})
    vi.stubGlobal('navigator', { clipboard: { writeText } })
    const wrapper = mountErrors(errors.slice(0, 1))
    await wrapper.get('[data-test="copy-path"]').trigger('click')
    await flushPromises()
    expect(writeText).toHaveBeenCalledWith(errors[0]!.path)
  })

  it('renders nothing without errors', () => {
    expect(mountErrors([]).html()).toBe('<!--v-if-->')
  })
})
