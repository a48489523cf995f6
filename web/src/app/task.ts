import { ref, type Ref } from 'vue'
import type { ApiError } from '../api/client'
import { asApiError } from './recordPage'

/** Task is one call to the server at a time, with its busy flag and its failure. */
export interface Task {
  /** running is true while the call runs. */
  running: Ref<boolean>
  /** failure is why the last call failed, cleared by the next one. */
  failure: Ref<ApiError | null>
  /** run makes the call; true when it succeeded. */
  run(call: () => Promise<void>): Promise<boolean>
}

/**
 * useTask holds what a component that makes one call at a time does: a flag while it
 * runs (a spinner, a disabled button) and the failure for an alert. `running` may start
 * true for a call that begins as the component mounts.
 */
export function useTask(running = false): Task {
  const task: Task = {
    running: ref(running),
    failure: ref<ApiError | null>(null),
    async run(call) {
      task.running.value = true
      task.failure.value = null
      try {
        await call()
        return true
      } catch (cause) {
        task.failure.value = asApiError(cause)
        return false
      } finally {
        task.running.value = false
      }
    },
  }
  return task
}
