import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { ElFormItem, ElInput, type FormItemRule } from 'element-plus'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, ref, type PropType } from 'vue'
import { ApiError } from '../api/errors'
import { createAppI18n } from './i18n'
import { useRecordDialog } from './recordDialog'
import RecordDialog from './RecordDialog.vue'

interface Thing {
  id: string
  name: string
  version: number
}

const api = {
  create: vi.fn<(body: { name: string }) => Promise<Thing>>(),
  update: vi.fn<(id: string, body: { version: number; name: string }) => Promise<Thing>>(),
  fetch: vi.fn<(id: string) => Promise<Thing>>(),
}

// ThingDialog is the smallest record dialog: one required name, added or changed.
const ThingDialog = defineComponent({
  components: { RecordDialog },
  props: { thing: { type: Object as PropType<Thing | null>, default: null }, modelValue: { type: Boolean, required: true } },
  emits: ['update:modelValue', 'saved', 'reloaded', 'opened'],
  setup(props, { emit }) {
    const open = ref(props.modelValue)
    const dialog = useRecordDialog({
      open,
      record: () => props.thing,
      fields: ['name'] as const,
      draft: (thing) => ({ name: thing?.name ?? '' }),
      create: (form) => api.create({ name: form.name.trim() }),
      update: (thing, form) => (form.name.trim() === thing.name ? null : api.update(thing.id, { version: thing.version, name: form.name.trim() })),
      saved: (thing, created) => emit('saved', thing, created),
      fetch: (thing) => api.fetch(thing.id),
      reloaded: (fresh) => emit('reloaded', fresh),
      opened: (thing) => emit('opened', thing),
    })
    const rules: Record<string, FormItemRule[]> = { name: [{ required: true, whitespace: true, message: 'Name needed', trigger: 'blur' }] }
    return { open, dialog, rules }
  },
  template: `
    <RecordDialog :dialog="dialog" title="Thing" width="400px" :rules="rules" failed-title="Not saved"
      conflict-title="Changed elsewhere" conflict-body="Reload it." data-test="thing-dialog">
      <el-form-item label="Name" prop="name" :error="dialog.serverErrors.name">
        <el-input v-model="dialog.form.name" name="name" />
      </el-form-item>
    </RecordDialog>`,
})

let wrapper: VueWrapper | undefined

async function mountDialog(thing: Thing | null) {
  wrapper = mount(ThingDialog, { attachTo: document.body, props: { thing, modelValue: true }, global: { plugins: [createAppI18n('en')], components: { ElFormItem, ElInput } } })
  await flushPromises()
  return wrapper
}

const nameInput = () => document.querySelector<HTMLInputElement>('[data-test="thing-dialog"] input[name="name"]')!
const footerButton = (text: string) => [...document.querySelectorAll<HTMLButtonElement>('.el-dialog__footer button')].find((b) => b.textContent?.includes(text))!
const dialogOpen = () => (wrapper!.vm as unknown as { open: boolean }).open

// Element Plus shows a field's error state 100 ms after validating (a debounce).
async function settle(): Promise<void> {
  await flushPromises()
  await new Promise((resolve) => setTimeout(resolve, 150))
  await flushPromises()
}

async function typeName(value: string) {
  nameInput().value = value
  nameInput().dispatchEvent(new Event('input'))
  await flushPromises()
}

describe('useRecordDialog with RecordDialog', () => {
  afterEach(() => {
    wrapper?.unmount()
    document.body.innerHTML = ''
    vi.resetAllMocks()
  })

  it('fills the form on opening, validates, creates and closes', async () => {
    const created = { id: 't1', name: 'Lamp', version: 1 }
    api.create.mockResolvedValue(created)
    await mountDialog(null)
    expect(wrapper!.emitted('opened')).toEqual([[null]])
    expect(footerButton('Create')).toBeDefined()
    footerButton('Create').click()
    await settle()
    expect(document.body.textContent).toContain('Name needed')
    expect(api.create).not.toHaveBeenCalled()
    await typeName(' Lamp ')
    footerButton('Create').click()
    await flushPromises()
    expect(api.create).toHaveBeenCalledWith({ name: 'Lamp' })
    expect(wrapper!.emitted('saved')).toEqual([[created, true]])
    expect(dialogOpen()).toBe(false)
  })

  it('changes a record with the version read, and sends nothing when nothing changed', async () => {
    const thing = { id: 't1', name: 'Lamp', version: 3 }
    await mountDialog(thing)
    expect(nameInput().value).toBe('Lamp')
    footerButton('Save').click()
    await flushPromises()
    expect(api.update).not.toHaveBeenCalled()
    expect(wrapper!.emitted('saved')).toBeUndefined()
    expect(dialogOpen()).toBe(false)

    wrapper!.unmount()
    const saved = { ...thing, name: 'Desk lamp', version: 4 }
    api.update.mockResolvedValue(saved)
    await mountDialog(thing)
    await typeName('Desk lamp')
    footerButton('Save').click()
    await flushPromises()
    expect(api.update).toHaveBeenCalledWith('t1', { version: 3, name: 'Desk lamp' })
    expect(wrapper!.emitted('saved')).toEqual([[saved, false]])
  })

  it('puts the server field errors on their fields and the rest into an alert', async () => {
    api.create.mockRejectedValueOnce(new ApiError(409, 'already_exists', 'Taken.', 'r1', [{ field: 'body.name', message: 'That name is taken.' }]))
    await mountDialog(null)
    await typeName('Lamp')
    footerButton('Create').click()
    await settle()
    expect(document.querySelector('.el-form-item__error')?.textContent).toContain('That name is taken.')
    expect(document.body.textContent).not.toContain('Not saved')
    expect(dialogOpen()).toBe(true)

    api.create.mockRejectedValueOnce(new ApiError(500, 'internal_error', 'Boom.', 'r2'))
    footerButton('Create').click()
    await flushPromises()
    expect(document.body.textContent).toContain('Not saved')
    expect(document.body.textContent).not.toContain('That name is taken.')
  })

  it('shows a version conflict, blocks saving and reloads the record', async () => {
    const thing = { id: 't1', name: 'Lamp', version: 3 }
    const fresh = { id: 't1', name: 'Floor lamp', version: 5 }
    api.update.mockRejectedValue(new ApiError(409, 'version_conflict', 'stale', 'r1'))
    api.fetch.mockResolvedValue(fresh)
    await mountDialog(thing)
    await typeName('Mine')
    footerButton('Save').click()
    await flushPromises()
    expect(document.body.textContent).toContain('Changed elsewhere')
    expect(footerButton('Save').disabled).toBe(true)
    const reload = [...document.querySelectorAll('button')].find((b) => b.textContent?.includes('Reload'))!
    reload.click()
    await flushPromises()
    expect(api.fetch).toHaveBeenCalledWith('t1')
    expect(wrapper!.emitted('reloaded')).toEqual([[fresh]])
    expect(nameInput().value).toBe('Floor lamp')
    expect(document.body.textContent).not.toContain('Changed elsewhere')
    expect(footerButton('Save').disabled).toBe(false)
  })
})
