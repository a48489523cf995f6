/**
 * jwksProblem checks the issuer's keys an importer pastes: '' when empty or a JSON object
 * with a `keys` array, else the locale key (under attestations.imports.dialog) of what is wrong.
 */
export function jwksProblem(text: string): '' | 'keysNotJson' | 'keysNoSet' {
  const trimmed = text.trim()
  if (trimmed === '') return ''
  let parsed: unknown
  try {
    parsed = JSON.parse(trimmed)
  } catch {
    return 'keysNotJson'
  }
  if (typeof parsed !== 'object' || parsed === null || !Array.isArray((parsed as { keys?: unknown }).keys)) return 'keysNoSet'
  return ''
}
