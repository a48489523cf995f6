import { ElMessage } from 'element-plus'

// A field with a maximum length (maxlength) takes pasted text only up to it, and the browser
// drops the rest without a word: a long description pasted into a 10,000-character field
// lost its end unseen. watchPastedOverLimit listens to every paste in the document and, when
// the text would not fit, says how many characters the field takes and that the paste was
// cut. It returns the function that stops listening.
export function watchPastedOverLimit(
  target: Document,
  message: (limit: number) => string,
  notify: (text: string) => void = (text) => {
    ElMessage({ type: 'warning', message: text, showClose: true, grouping: true })
  },
): () => void {
  const onPaste = (event: Event) => {
    const field = event.target
    if (!(field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement)) return
    const limit = field.maxLength
    if (limit <= 0) return
    const pasted = (event as ClipboardEvent).clipboardData?.getData('text') ?? ''
    const kept = field.value.length - selectedLength(field)
    if (kept + pasted.length > limit) notify(message(limit))
  }
  target.addEventListener('paste', onPaste, true)
  return () => target.removeEventListener('paste', onPaste, true)
}

// selectedLength is how many characters the paste replaces.
function selectedLength(field: HTMLInputElement | HTMLTextAreaElement): number {
  try {
    const start = field.selectionStart ?? field.value.length
    const end = field.selectionEnd ?? start
    return Math.max(0, end - start)
  } catch {
    // Inputs of some types (number, email) have no selection.
    return 0
  }
}
