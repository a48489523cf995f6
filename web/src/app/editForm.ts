import type { FormInstance } from 'element-plus'
import { reactive, ref, type Ref } from 'vue'
import { ApiError } from '../api/client'
import { networkError, VERSION_CONFLICT } from '../api/errors'
import { placeFieldErrors } from './fieldErrors'

/** EditForm is the state of a form that adds or changes a versioned record. */
export interface EditForm<F extends string> {
  formRef: Ref<FormInstance | undefined>
  /** serverErrors are the server's messages about each field ('' when none). */
  serverErrors: Record<F, string>
  saving: Ref<boolean>
  reloading: Ref<boolean>
  /** conflict is true after a 409 version_conflict: the record changed since it was read. */
  conflict: Ref<boolean>
  /** failure is what no field shows, for an alert above the form. */
  failure: Ref<ApiError | null>
  /** reset forgets the server's messages, a conflict, a failure and the form's own errors. */
  reset(): void
  /**
   * submit validates the form and then runs `send`; a version conflict sets
   * `conflict`, any other failure goes onto the fields or into `failure`. With
   * `validated`, a form of its own (a child component) has checked the values already.
   */
  submit(send: () => Promise<void>, options?: { validated?: boolean }): Promise<void>
  /** reload runs `fetch` (reading the record afresh); its failure goes into `failure`. */
  reload(fetch: () => Promise<void>): Promise<void>
}

/**
 * useEditForm holds what the dialogs that add or change a record share: the
 * server's field errors, the saving and reloading flags, a version conflict and an
 * unplaced failure. `aliases` maps further names the server gives fields.
 */
export function useEditForm<F extends string>(
  fields: readonly F[],
  aliases: Partial<Record<string, F>> = {},
): EditForm<F> {
  const formRef = ref<FormInstance>()
  const serverErrors = reactive(noErrors()) as Record<F, string>
  const saving = ref(false)
  const reloading = ref(false)
  const conflict = ref(false)
  const failure = ref<ApiError | null>(null)

  function noErrors(): Record<F, string> {
    return Object.fromEntries(fields.map((field) => [field, ''])) as Record<F, string>
  }

  function clear(): void {
    Object.assign(serverErrors, noErrors())
    failure.value = null
    conflict.value = false
  }

  function reset(): void {
    clear()
    formRef.value?.clearValidate()
  }

  async function submit(send: () => Promise<void>, options: { validated?: boolean } = {}): Promise<void> {
    if (saving.value) return
    if (!options.validated) {
      if (!formRef.value) return
      clear()
      const valid = await formRef.value.validate().catch(() => false)
      if (!valid) return
    } else {
      clear()
    }
    saving.value = true
    try {
      await send()
    } catch (cause) {
      const error = cause instanceof ApiError ? cause : networkError(cause)
      if (error.error === VERSION_CONFLICT) {
        conflict.value = true
        return
      }
      const placed = placeFieldErrors(error, fields, aliases)
      Object.assign(serverErrors, placed.fields)
      failure.value = placed.unplaced ? error : null
    } finally {
      saving.value = false
    }
  }

  async function reload(fetch: () => Promise<void>): Promise<void> {
    if (reloading.value) return
    reloading.value = true
    try {
      await fetch()
    } catch (cause) {
      failure.value = cause instanceof ApiError ? cause : networkError(cause)
    } finally {
      reloading.value = false
    }
  }

  return { formRef, serverErrors, saving, reloading, conflict, failure, reset, submit, reload }
}
