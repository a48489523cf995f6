import type { SearchGroup, SearchHit } from './api'

/** flattenHits is every hit of groups in the order they show, for keyboard navigation. */
export function flattenHits(groups: SearchGroup[]): SearchHit[] {
  return groups.flatMap((g) => g.items)
}

/** nextIndex moves the active hit by step, wrapping around; -1 (none) when there are none. */
export function nextIndex(current: number, step: number, count: number): number {
  if (count === 0) return -1
  if (current < 0) return step > 0 ? 0 : count - 1
  return (((current + step) % count) + count) % count
}

/**
 * subtitleKey says which translated list a hit's subtitle is a value of (an entity's type, a
 * project's state); other subtitles are names and shown as they are.
 */
export function subtitleKey(hit: SearchHit): string | null {
  if (hit.type === 'entity') return `entities.types.${hit.subtitle}`
  if (hit.type === 'project') return `projects.states.${hit.subtitle}`
  return null
}

/** isShortcut is Ctrl-K or ⌘-K, which opens the search anywhere. */
export function isShortcut(e: KeyboardEvent): boolean {
  return (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k'
}
