import { onBeforeUnmount, onMounted, ref, type Ref } from 'vue'

// Layout switches that CSS alone cannot make (a table becomes a card list): a media
// query followed while the component lives.

/** PHONE_QUERY matches the phone layout of the list pages (the width their CSS changes at). */
export const PHONE_QUERY = '(max-width: 720px)'

/** useMediaQuery follows whether `query` matches; false where matchMedia is missing (tests). */
export function useMediaQuery(query: string): Ref<boolean> {
  const matches = ref(false)
  let media: MediaQueryList | null = null
  const update = () => (matches.value = media?.matches ?? false)
  onMounted(() => {
    if (typeof window.matchMedia !== 'function') return
    media = window.matchMedia(query)
    update()
    media.addEventListener?.('change', update)
  })
  onBeforeUnmount(() => media?.removeEventListener?.('change', update))
  return matches
}
