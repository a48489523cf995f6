import { onBeforeUnmount, readonly, ref, type Ref } from 'vue'

/**
 * useObjectUrl keeps one object URL for a blob (an image to show in <img>): set()
 * revokes the previous URL before making the next, and the URL is revoked when the
 * component unmounts, so no blob outlives the page that showed it.
 */
export function useObjectUrl(): { url: Readonly<Ref<string>>; set: (blob: Blob | null) => void } {
  const url = ref('')
  function set(blob: Blob | null): void {
    if (url.value) URL.revokeObjectURL(url.value)
    url.value = blob ? URL.createObjectURL(blob) : ''
  }
  onBeforeUnmount(() => set(null))
  return { url: readonly(url), set }
}
