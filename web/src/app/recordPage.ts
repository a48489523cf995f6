import { computed, ref, shallowRef, watch, type ComputedRef, type Ref, type ShallowRef } from 'vue'
import { useRoute } from 'vue-router'
import { ApiError } from '../api/client'
import { networkError } from '../api/errors'

/** ActionFailure is a failed action on a record page: what was tried (title) and why it failed. */
export interface ActionFailure {
  title: string
  error: ApiError
}

/** RecordPageOptions describe a page that shows one record, named by the route's `id`. */
export interface RecordPageOptions<T> {
  /** fetch reads the record. */
  fetch(id: string): Promise<T>
  /** loaded runs after the record was read (e.g. to read what the page shows beside it). */
  loaded?(record: T): void
  /**
   * quietFailure is the title under which a failed quiet reload shows as an action
   * failure, keeping the record on the page; without it the page shows the failure instead.
   */
  quietFailure?: () => string
}

/** RecordPage is the state of a page showing one record. */
export interface RecordPage<T> {
  /** id is the route's `id`. */
  id: ComputedRef<string>
  record: ShallowRef<T | null>
  /** loading is true while the record is read (not during a quiet reload). */
  loading: Ref<boolean>
  /** notFound is true when the server answered 404. */
  notFound: Ref<boolean>
  /** loadFailure is why the record could not be read (other than 404). */
  loadFailure: Ref<ApiError | null>
  /** actionFailure is the last failed action, shown above the record. */
  actionFailure: Ref<ActionFailure | null>
  /** busy is true while an action runs. */
  busy: Ref<boolean>
  /** load reads the record; `quiet` keeps the page as it is meanwhile. */
  load(quiet?: boolean): Promise<void>
  /**
   * run runs an action (busy meanwhile); its failure goes into actionFailure under
   * `title` (or the title for that failure). True when it succeeded.
   */
  run(title: string | ((error: ApiError) => string), action: () => Promise<void>): Promise<boolean>
}

/** asApiError is a failure as ApiError (a network failure when it is not one). */
export function asApiError(cause: unknown): ApiError {
  return cause instanceof ApiError ? cause : networkError(cause)
}

/**
 * useRecordPage holds what every page showing one record does: read it whenever the
 * route's id changes (loading, 404 as "not found", any other failure for an alert),
 * and run actions on it with a busy flag and an alert for their failure. RecordPage.vue
 * shows the loading, not-found and failure states around the page's content.
 */
export function useRecordPage<T>(options: RecordPageOptions<T>): RecordPage<T> {
  const route = useRoute()
  const id = computed(() => String(route.params.id ?? ''))
  const record = shallowRef<T | null>(null)
  const loading = ref(true)
  const notFound = ref(false)
  const loadFailure = ref<ApiError | null>(null)
  const actionFailure = ref<ActionFailure | null>(null)
  const busy = ref(false)

  async function load(quiet = false): Promise<void> {
    if (!quiet) {
      loading.value = true
      actionFailure.value = null
    }
    notFound.value = false
    loadFailure.value = null
    try {
      record.value = await options.fetch(id.value)
      options.loaded?.(record.value)
    } catch (cause) {
      const error = asApiError(cause)
      if (error.status === 404) {
        record.value = null
        notFound.value = true
      } else if (quiet && record.value !== null && options.quietFailure) {
        actionFailure.value = { title: options.quietFailure(), error }
      } else {
        record.value = null
        loadFailure.value = error
      }
    } finally {
      loading.value = false
    }
  }

  async function run(title: string | ((error: ApiError) => string), action: () => Promise<void>): Promise<boolean> {
    busy.value = true
    actionFailure.value = null
    try {
      await action()
      return true
    } catch (cause) {
      const error = asApiError(cause)
      actionFailure.value = { title: typeof title === 'string' ? title : title(error), error }
      return false
    } finally {
      busy.value = false
    }
  }

  watch(id, () => void load(), { immediate: true })

  return { id, record, loading, notFound, loadFailure, actionFailure, busy, load, run }
}
