import type { FormInstance } from 'element-plus'
import { describe, expect, it, vi } from 'vitest'
import { ApiError } from '../api/errors'
import { useEditForm } from './editForm'

function formOf(valid: boolean): FormInstance {
  return { validate: vi.fn(async () => (valid ? true : Promise.reject(new Error('invalid')))), clearValidate: vi.fn() } as unknown as FormInstance
}

describe('useEditForm', () => {
  it('sends nothing while the form is invalid', async () => {
    const edit = useEditForm(['name'] as const)
    edit.formRef.value = formOf(false)
    const send = vi.fn(async () => {})
    await edit.submit(send)
    expect(send).not.toHaveBeenCalled()
    expect(edit.saving.value).toBe(false)
  })

  it('turns a version conflict into `conflict`', async () => {
    const edit = useEditForm(['name'] as const)
    edit.formRef.value = formOf(true)
    await edit.submit(async () => {
      throw new ApiError(409, 'version_conflict', 'changed', 'req')
    })
    expect(edit.conflict.value).toBe(true)
    expect(edit.failure.value).toBeNull()
  })

  it('places field errors, aliases included, and keeps the rest for an alert', async () => {
    const edit = useEditForm(['name', 'chatIds'] as const, { 'channels.chatIds': 'chatIds' })
    edit.formRef.value = formOf(true)
    const refused = new ApiError(400, 'invalid_request', 'invalid', 'req', [
      { field: 'body.name', message: 'taken' },
      { field: 'channels.chatIds', message: 'unknown' },
    ])
    await edit.submit(async () => {
      throw refused
    })
    expect(edit.serverErrors).toEqual({ name: 'taken', chatIds: 'unknown' })
    expect(edit.failure.value).toBeNull()

    const other = new ApiError(500, 'internal', 'boom', 'req')
    await edit.submit(async () => {
      throw other
    })
    expect(edit.serverErrors).toEqual({ name: '', chatIds: '' })
    expect(edit.failure.value).toBe(other)
  })

  it('keeps a failed reload for the alert and clears everything on reset', async () => {
    const edit = useEditForm(['name'] as const)
    const form = formOf(true)
    edit.formRef.value = form
    await edit.reload(async () => {
      throw new ApiError(404, 'not_found', 'gone', 'req')
    })
    expect(edit.failure.value?.error).toBe('not_found')
    expect(edit.reloading.value).toBe(false)
    edit.conflict.value = true
    edit.reset()
    expect(edit.failure.value).toBeNull()
    expect(edit.conflict.value).toBe(false)
    expect(form.clearValidate).toHaveBeenCalled()
  })

  it('sends values a form of their own has validated without a form here', async () => {
    const edit = useEditForm(['name'] as const)
    const send = vi.fn(async () => {})
    await edit.submit(send)
    expect(send).not.toHaveBeenCalled()
    await edit.submit(send, { validated: true })
    expect(send).toHaveBeenCalledTimes(1)
  })
})
