import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import { ApiError } from '../../api/client'
import { networkError } from '../../api/errors'
import { fetchSetupStatus, type SetupStatus } from './api'

/** DEFAULT_PASSWORD_MIN_LENGTH is the server's default policy, used until the status has loaded. */
export const DEFAULT_PASSWORD_MIN_LENGTH = 12

/** LoadOptions tune SetupStore.load. */
export interface LoadOptions {
  /** maxAgeMs accepts a cached status at most this old; 0 always asks the server. */
  maxAgeMs?: number
}

/**
 * useSetupStore caches the installation's setup status for the router guard and
 * the wizard. Only successful answers are cached: after a failure the next
 * navigation asks again, and `error` explains the failure to the viewer.
 */
export const useSetupStore = defineStore('setup', () => {
  const status = ref<SetupStatus | null>(null)
  const error = ref<ApiError | null>(null)
  let loadedAt = 0
  let pending: Promise<void> | null = null

  const passwordMinLength = computed(
    () => status.value?.passwordMinLength ?? DEFAULT_PASSWORD_MIN_LENGTH,
  )

  /** uploadMaxFileSize is the largest file the server accepts in one upload, in bytes; null until known. */
  const uploadMaxFileSize = computed(() => status.value?.uploadMaxFileSize ?? null)

  async function fetchNow(): Promise<void> {
    try {
      status.value = await fetchSetupStatus()
      loadedAt = Date.now()
      error.value = null
    } catch (cause) {
      error.value = cause instanceof ApiError ? cause : networkError(cause)
    }
  }

  /** load fetches the status unless a fresh enough one is cached; it never throws. */
  function load(options: LoadOptions = {}): Promise<void> {
    const maxAgeMs = options.maxAgeMs ?? Number.POSITIVE_INFINITY
    if (status.value && Date.now() - loadedAt <= maxAgeMs) return Promise.resolve()
    pending ??= fetchNow().finally(() => {
      pending = null
    })
    return pending
  }

  /** markComplete records that the wizard has just created the first administrator. */
  function markComplete(): void {
    if (status.value) status.value = { ...status.value, setupComplete: true }
  }

  return { status, error, passwordMinLength, uploadMaxFileSize, load, markComplete }
})
