/**
 * copyText puts `text` on the clipboard. It returns false when the browser
 * refuses (no permission, or not a secure context), so the caller can ask the
 * viewer to copy by hand from the selected field instead.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard) return false
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    return false
  }
}
