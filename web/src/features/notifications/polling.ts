import { onBeforeUnmount, onMounted } from 'vue'

/** UNREAD_POLL_INTERVAL_MS is how often the bell asks for the unread count. */
export const UNREAD_POLL_INTERVAL_MS = 10_000

/**
 * usePolling calls `tick` when the component mounts, every `intervalMs` while the
 * page is visible, and whenever the window regains focus, until the component
 * unmounts. A hidden tab does not ask; it catches up when it is shown again.
 */
export function usePolling(tick: () => unknown, intervalMs: number): void {
  let timer: ReturnType<typeof setInterval> | undefined
  const run = (): void => {
    if (typeof document !== 'undefined' && document.visibilityState === 'hidden') return
    void tick()
  }
  const onVisible = (): void => {
    if (document.visibilityState === 'visible') run()
  }
  onMounted(() => {
    run()
    timer = setInterval(run, intervalMs)
    window.addEventListener('focus', run)
    document.addEventListener('visibilitychange', onVisible)
  })
  onBeforeUnmount(() => {
    clearInterval(timer)
    window.removeEventListener('focus', run)
    document.removeEventListener('visibilitychange', onVisible)
  })
}
