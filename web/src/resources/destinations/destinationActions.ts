import { ElMessage } from 'element-plus'
import { ref, type Ref } from 'vue'
import { useI18n } from 'vue-i18n'
import { ApiError } from '../../api/client'
import { networkError } from '../../api/errors'
import { useApiErrorText } from '../../app/apiErrorText'
import { useConfirm } from '../../app/confirm'
import type { CursorList } from '../../app/cursorList'
import type { DeliveryLogApi } from './deliveries'

/** Destination is what a webhook and a chat destination share for the list's actions. */
export interface Destination {
  id: string
  name: string
  version: number
  active: boolean
}

/** DestinationCalls are the server calls of one kind of destination. */
export interface DestinationCalls<T extends Destination> {
  /** deliveries is the delivery log of one destination. */
  deliveries(id: string): DeliveryLogApi
  /** test queues a test message to one destination. */
  test(id: string): Promise<unknown>
  /** update changes a destination; the actions only re-enable one. */
  update(id: string, update: { version: number; active: boolean }): Promise<T>
  /** remove deletes a destination. */
  remove(id: string): Promise<void>
  /** deleteKeys is the i18n prefix of the delete confirmation (body, title, confirm, done, failed). */
  deleteKeys: string
}

/** DestinationActions are the state and handlers of a list of destinations. */
export interface DestinationActions<T extends Destination> {
  /** busy is the id of the destination an action is under way for. */
  busy: Ref<string | null>
  /** log is the delivery log shown beside the list, if any. */
  log: Ref<{ api: DeliveryLogApi; name: string } | null>
  /** dialogOpen and editing drive the add/change dialog (editing is null when adding). */
  dialogOpen: Ref<boolean>
  editing: Ref<T | null>
  create(): void
  edit(destination: T): void
  /** failed shows a failure as a toast, after the translated `prefix`. */
  failed(prefix: string, cause: unknown): void
  /** replaced puts a changed destination in its row (reloads the list when it has none). */
  replaced(destination: T): void
  openLog(destination: T): void
  sendTest(destination: T): Promise<void>
  enable(destination: T): Promise<void>
  remove(destination: T): Promise<void>
}

/**
 * useDestinationActions holds what the webhook and chat destination lists do with
 * a row: open its delivery log, send a test (then show the log), re-enable it,
 * delete it after a confirmation, and open the dialog to add or change one.
 */
export function useDestinationActions<T extends Destination>(
  list: CursorList<T>,
  calls: DestinationCalls<T>,
): DestinationActions<T> {
  const { t } = useI18n()
  const confirm = useConfirm()
  const describe = useApiErrorText()
  const busy = ref<string | null>(null)
  const log = ref<{ api: DeliveryLogApi; name: string } | null>(null)
  const dialogOpen = ref(false)
  const editing = ref<T | null>(null) as Ref<T | null>

  function failed(prefix: string, cause: unknown): void {
    const error = cause instanceof ApiError ? cause : networkError(cause)
    ElMessage.error({ message: `${prefix} ${describe(error)}`, duration: 6000 })
  }

  function replaced(destination: T): void {
    const known = list.items.value.some((item) => item.id === destination.id)
    if (!known) {
      void list.reload()
      return
    }
    list.items.value = list.items.value.map((item) => (item.id === destination.id ? destination : item))
  }

  function create(): void {
    editing.value = null
    dialogOpen.value = true
  }

  function edit(destination: T): void {
    editing.value = destination
    dialogOpen.value = true
  }

  function openLog(destination: T): void {
    log.value = { api: calls.deliveries(destination.id), name: destination.name }
  }

  async function sendTest(destination: T): Promise<void> {
    busy.value = destination.id
    try {
      await calls.test(destination.id)
      ElMessage.success(t('webhooks.test.sent', { name: destination.name }))
      openLog(destination)
    } catch (cause) {
      failed(t('webhooks.test.failed'), cause)
    } finally {
      busy.value = null
    }
  }

  async function enable(destination: T): Promise<void> {
    busy.value = destination.id
    try {
      replaced(await calls.update(destination.id, { version: destination.version, active: true }))
      ElMessage.success(t('webhooks.enabled', { name: destination.name }))
    } catch (cause) {
      failed(t('webhooks.enableFailed'), cause)
      void list.reload()
    } finally {
      busy.value = null
    }
  }

  async function remove(destination: T): Promise<void> {
    const keys = calls.deleteKeys
    const question = { title: t(`${keys}.title`), body: t(`${keys}.body`, { name: destination.name }), button: t(`${keys}.confirm`) }
    if (!(await confirm({ ...question, danger: true }))) return
    busy.value = destination.id
    try {
      await calls.remove(destination.id)
      ElMessage.success(t(`${keys}.done`, { name: destination.name }))
    } catch (cause) {
      failed(t(`${keys}.failed`), cause)
    } finally {
      busy.value = null
    }
    await list.reload()
  }

  return { busy, log, dialogOpen, editing, create, edit, failed, replaced, openLog, sendTest, enable, remove }
}
