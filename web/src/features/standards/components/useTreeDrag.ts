import { ref, type Ref } from 'vue'
import type { RequirementMove } from '../types'
import { dropMove, dropZone, type DropZone, type TreeModel } from './treeModel'

/** TreeDragOptions connect the drag and drop of tree rows to the tree. */
export interface TreeDragOptions {
  model: Readonly<Ref<TreeModel>>
  /** Height of a row, when the browser reports none. */
  rowHeight: number
  /** Whether rows may be dragged now (editable, nothing being edited). */
  enabled: () => boolean
  isExpanded: (id: string) => boolean
  onMove: (move: RequirementMove) => void
}

/**
 * useTreeDrag is HTML5 drag and drop for the requirement tree: a row dropped on the top,
 * middle or bottom of another row goes before, inside (last child) or after it, or at
 * the end of the top level on the strip below the tree. A drop into the dragged row's own
 * subtree is refused (the browser shows "no drop") and nothing is emitted.
 */
export function useTreeDrag(options: TreeDragOptions) {
  const { model } = options
  const draggedId = ref<string | null>(null)
  const dropTarget = ref<{ id: string; zone: DropZone } | null>(null)
  const rootDropOver = ref(false)

  function moveForDrop(event: DragEvent, targetId: string): { move: RequirementMove | null; zone: DropZone } {
    const rect = (event.currentTarget as HTMLElement).getBoundingClientRect()
    const zone = dropZone(event.clientY - rect.top, rect.height || options.rowHeight)
    if (draggedId.value === null) return { move: null, zone }
    return { move: dropMove(model.value, draggedId.value, targetId, zone, options.isExpanded(targetId)), zone }
  }

  function rootMove(): RequirementMove | null {
    const id = draggedId.value
    const node = id === null ? undefined : model.value.nodes.get(id)
    if (id === null || !node) return null
    const position = model.value.roots.filter((root) => root !== id).length
    if (node.parentId === null && node.index === position) return null
    return { id, parentId: null, position }
  }

  function endDrag(): void {
    draggedId.value = null
    dropTarget.value = null
    rootDropOver.value = false
  }

  function onDragStart(event: DragEvent, id: string): void {
    if (!options.enabled()) {
      event.preventDefault()
      return
    }
    draggedId.value = id
    if (event.dataTransfer) {
      event.dataTransfer.effectAllowed = 'move'
      // Some browsers start a drag only with data set; the identifier is harmless to share.
      event.dataTransfer.setData('text/plain', model.value.nodes.get(id)?.requirement.identifier ?? id)
    }
  }

  function onDragOver(event: DragEvent, id: string): void {
    const { move, zone } = moveForDrop(event, id)
    if (!move) {
      if (dropTarget.value?.id === id) dropTarget.value = null
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'none'
      return
    }
    event.preventDefault() // accepts the drop
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'move'
    dropTarget.value = { id, zone }
  }

  function onDragLeave(id: string): void {
    if (dropTarget.value?.id === id) dropTarget.value = null
  }

  function onDrop(event: DragEvent, id: string): void {
    event.preventDefault()
    const { move } = moveForDrop(event, id)
    endDrag()
    if (move) options.onMove(move)
  }

  function onRootDragOver(event: DragEvent): void {
    if (!rootMove()) return
    event.preventDefault()
    rootDropOver.value = true
  }

  function onRootDrop(event: DragEvent): void {
    event.preventDefault()
    const move = rootMove()
    endDrag()
    if (move) options.onMove(move)
  }

  return { draggedId, dropTarget, rootDropOver, onDragStart, onDragOver, onDragLeave, onDrop, onRootDragOver, onRootDrop, endDrag }
}
