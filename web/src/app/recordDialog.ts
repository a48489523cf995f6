import type { FormInstance } from 'element-plus'
import { computed, reactive, shallowRef, watch, type ComputedRef, type Ref, type ShallowRef, type UnwrapNestedRefs, type WritableComputedRef } from 'vue'
import { useEditForm, type EditForm } from './editForm'

/** RecordDialogOptions describe a dialog (or drawer) whose form adds a record or changes one. */
export interface RecordDialogOptions<R, D extends object, F extends string, S> {
  /** open is the dialog's v-model: opening it fills the form from `record()`. */
  open: Ref<boolean>
  /** record is the record to change when the dialog opens; null adds a new one. */
  record: () => R | null
  /** fields are the form's fields the server may name in a failure's details. */
  fields: readonly F[]
  /** aliases map further names the server gives fields onto form fields. */
  aliases?: Partial<Record<string, F>>
  /** draft is the form's values for a record, or for a new one (null). */
  draft(record: NoInfer<R> | null): D
  /** ready says whether the form may be sent once its rules pass (e.g. rows they cannot check); false keeps the dialog open. */
  ready?(form: D): boolean
  /** create adds the record the form describes. */
  create?(form: D): Promise<S>
  /** update sends the form's changes to `record`, with the version it was read at; null when nothing changed. */
  update?(record: NoInfer<R>, form: D): Promise<S> | null
  /** saved tells of a record added (`created`) or changed, before the dialog closes (a message, an event). */
  saved?(result: S, created: boolean): void
  /**
   * fetch reads the record afresh after a version conflict (the alert's "Reload"); null
   * when the page reads it instead and hands it back through fill().
   */
  fetch?(record: NoInfer<R>): Promise<NoInfer<R> | null>
  /**
   * keepInput makes a reload renew only the record (its version): the form keeps what
   * the user typed, and the next save goes against the record as it is now.
   */
  keepInput?: boolean
  /** reloaded tells of the record read afresh (the page shows it too). */
  reloaded?(fresh: NoInfer<R>): void
  /** stayOpen keeps the dialog open once saved, to show what the server answered (a link shown once). */
  stayOpen?: boolean
  /** opened runs after the form is filled on opening, e.g. to load the choices it offers. */
  opened?(record: NoInfer<R> | null): void | Promise<void>
}

/** RecordDialog is a record dialog's state: the form, the record it was filled from, and the form's state of saving. */
export interface RecordDialog<R, D extends object, F extends string> extends Omit<EditForm<F>, 'submit' | 'reload'> {
  /** open is whether the dialog shows (the `open` option). */
  open: Readonly<Ref<boolean>>
  /** setOpen opens or closes the dialog. */
  setOpen(value: boolean): void
  /** form holds the form's values. */
  form: UnwrapNestedRefs<D>
  /** current is the record the form was filled from (null: a new one). */
  current: ShallowRef<R | null>
  /** editing is true while the dialog changes a record rather than adding one. */
  editing: ComputedRef<boolean>
  /** bindForm hands the form element to the dialog, which validates through it (`:ref="bindForm"`). */
  bindForm(el: unknown): void
  /** fill puts a record (or a new one) into the form and forgets every message. */
  fill(record: R | null): void
  /** save validates the form, then adds or changes the record and closes the dialog. */
  save(): Promise<void>
  /** send is save for values a form of its own has validated (a child component's). */
  send(values: D): Promise<void>
  /** reload reads the record afresh after a version conflict and fills the form with it. */
  reload(): Promise<void>
}

/**
 * useRecordDialog holds what every dialog that adds or changes a record does: filling
 * the form when it opens (from the record, or empty), validating and saving (create or
 * update; an update with no change sends nothing), closing when saved, a version
 * conflict (409 version_conflict: the record changed since it was read) with a reload
 * of the record, and the server's field errors on the form's fields (what no field
 * shows goes into `failure`). Built on useEditForm; the dialog's template shows the
 * state with EditFormAlerts and DialogFooter, or all of it with RecordDialog.vue.
 */
export function useRecordDialog<R, D extends object, F extends string, S = R>(
  options: RecordDialogOptions<R, D, F, S>,
): RecordDialog<R, D, F> {
  const edit = useEditForm(options.fields, options.aliases)
  const form = reactive(options.draft(null)) as UnwrapNestedRefs<D>
  const current = shallowRef<R | null>(null)
  const editing = computed(() => current.value !== null)

  function bindForm(el: unknown): void {
    edit.formRef.value = (el ?? undefined) as FormInstance | undefined
  }

  function fill(record: R | null): void {
    current.value = record
    edit.reset()
    // resetFields holds each field's validation until the next tick (reset's clearValidate
    // would lift that hold, so it comes first): a field's input checks a changed value,
    // which would otherwise show an error for what was typed before, e.g. "Enter a
    // password." on opening the dialog for the next user.
    edit.formRef.value?.resetFields()
    Object.assign(form, options.draft(record))
  }

  watch(
    options.open,
    async (isOpen) => {
      if (!isOpen) return
      const record = options.record()
      fill(record)
      await options.opened?.(record)
    },
    { immediate: true },
  )

  async function store(): Promise<void> {
    const record = current.value
    const values = form as D
    if (options.ready && !options.ready(values)) return
    const pending = record === null ? options.create?.(values) : options.update?.(record, values)
    if (pending) options.saved?.(await pending, record === null)
    if (!options.stayOpen) options.open.value = false
  }

  async function save(): Promise<void> {
    await edit.submit(store)
  }

  async function send(values: D): Promise<void> {
    Object.assign(form, values)
    await edit.submit(store, { validated: true })
  }

  async function reload(): Promise<void> {
    const record = current.value
    const fetch = options.fetch
    if (record === null || !fetch) return
    await edit.reload(async () => {
      const fresh = await fetch(record)
      if (fresh === null) return
      if (options.keepInput) {
        current.value = fresh
        edit.conflict.value = false
      } else {
        fill(fresh)
      }
      options.reloaded?.(fresh)
    })
  }

  const { submit: _submit, reload: _reload, ...state } = edit
  function setOpen(value: boolean): void {
    options.open.value = value
  }

  return { ...state, open: options.open, setOpen, form, current, editing, bindForm, fill, save, send, reload }
}

/**
 * useOpenWhile is the open state of a dialog or drawer that shows while `shown` holds
 * (e.g. while the page hands it a record) and asks to be closed through `close`.
 */
export function useOpenWhile(shown: () => boolean, close: () => void): WritableComputedRef<boolean> {
  return computed({
    get: shown,
    set: (value) => {
      if (!value) close()
    },
  })
}
