import type { EventType } from './api'

/** ALL_EVENTS is the filter entry that selects every event type, including types added later. */
export const ALL_EVENTS = '*'

/** EventCategory is one category of the catalogue with its types, in catalogue order. */
export interface EventCategory {
  category: string
  types: EventType[]
}

/** categoryOf returns the category of an event type: the text before its first dot. */
export function categoryOf(type: string): string {
  const dot = type.indexOf('.')
  return dot < 0 ? type : type.slice(0, dot)
}

/** categoryEntry is the filter entry that selects a whole category, such as "user.*". */
export function categoryEntry(category: string): string {
  return `${category}.*`
}

/** groupEventTypes groups the catalogue by category, keeping the catalogue's order. */
export function groupEventTypes(catalogue: readonly EventType[]): EventCategory[] {
  const groups = new Map<string, EventType[]>()
  for (const type of catalogue) {
    const category = type.category || categoryOf(type.type)
    const list = groups.get(category) ?? []
    list.push(type)
    groups.set(category, list)
  }
  return [...groups].map(([category, types]) => ({ category, types }))
}

/** filterMatches reports whether filter entries select `type`, as the server decides it. */
export function filterMatches(entries: readonly string[], type: string): boolean {
  const category = categoryOf(type)
  return entries.some((entry) => entry === ALL_EVENTS || entry === type || entry === categoryEntry(category))
}

/** FilterSelection is a filter as the form shows it: everything, or a set of exact types. */
export interface FilterSelection {
  all: boolean
  /** types are the selected types of the catalogue, in catalogue order. */
  types: string[]
}

/**
 * selectionOf reads filter entries ("*", "<category>.*", exact types) as the form's
 * selection: "*" is everything; a category entry selects each of its types.
 */
export function selectionOf(entries: readonly string[], catalogue: readonly EventType[]): FilterSelection {
  if (entries.includes(ALL_EVENTS)) return { all: true, types: [] }
  return { all: false, types: catalogue.filter((type) => filterMatches(entries, type.type)).map((type) => type.type) }
}

/**
 * entriesOf writes a selection back as filter entries, sorted as the server stores
 * them. A category whose every type (in the whole catalogue) is selected becomes
 * "<category>.*", which also covers types the category gains later; otherwise each
 * selected type is listed. `offered` are the types the form let the viewer choose
 * (for personal rules, those they may receive); types outside it are never written.
 */
export function entriesOf(
  selection: FilterSelection,
  offered: readonly EventType[],
  catalogue: readonly EventType[] = offered,
): string[] {
  if (selection.all) return [ALL_EVENTS]
  const chosen = new Set(selection.types.filter((type) => offered.some((entry) => entry.type === type)))
  const entries: string[] = []
  for (const group of groupEventTypes(catalogue)) {
    const selected = group.types.filter((type) => chosen.has(type.type))
    if (selected.length === 0) continue
    if (selected.length === group.types.length) entries.push(categoryEntry(group.category))
    else entries.push(...selected.map((type) => type.type))
  }
  return entries.sort()
}

/** FilterPart is one item of a filter's summary: a whole category or one type. */
export type FilterPart = { kind: 'category'; category: string } | { kind: 'type'; type: string }

/**
 * summarizeFilter describes filter entries for a table: null for "all events",
 * otherwise whole categories first, then single types, each in catalogue order
 * (entries the catalogue does not know keep their place at the end).
 */
export function summarizeFilter(entries: readonly string[], catalogue: readonly EventType[]): FilterPart[] | null {
  if (entries.includes(ALL_EVENTS)) return null
  const groups = groupEventTypes(catalogue)
  const categories = groups.map((group) => group.category).filter((category) => entries.includes(categoryEntry(category)))
  const types = catalogue
    .map((type) => type.type)
    .filter((type) => entries.includes(type) && !categories.includes(categoryOf(type)))
  const known = new Set([...categories.map(categoryEntry), ...types])
  const rest = entries.filter((entry) => !known.has(entry) && !categories.includes(categoryOf(entry)))
  return [
    ...categories.map((category): FilterPart => ({ kind: 'category', category })),
    ...[...types, ...rest].map((type): FilterPart => ({ kind: 'type', type })),
  ]
}
