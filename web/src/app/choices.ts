import { onMounted, shallowRef, type ShallowRef } from 'vue'

/**
 * useChoices reads what a picker or a filter offers (tags, roles, published standards)
 * when the component mounts, and only if `wanted` (the viewer may see them). A failure
 * leaves the choices empty: the page still works without them.
 */
export function useChoices<T>(fetch: () => Promise<T[]>, wanted: () => boolean = () => true): ShallowRef<T[]> {
  const choices = shallowRef<T[]>([])
  onMounted(() => {
    if (!wanted()) return
    fetch()
      .then((list) => (choices.value = list))
      .catch(() => {})
  })
  return choices
}
