// How a standard's levels are named and what a level holds. A level covers exactly the
// requirements its source document lists under it. Some standards' documents list every
// requirement under one level only — OWASP ASVS 5.0.0 puts each requirement under the
// lowest level that needs it, so "Level 2" lists only the Level 2 additions — while the
// standard's text says a higher level includes the lower ones. Assay keeps the document's
// lists as they are, and says so where levels are picked or shown (docs/catalogue.md).

/** NamedLevel is what naming a level needs. */
export interface NamedLevel {
  identifier: string
  title: string
}

/**
 * levelName names a level once: its identifier and title, or just one of them when the
 * title repeats the identifier (ASVS: identifier "Level 1", title "Level 1").
 */
export function levelName(level: NamedLevel, separator = ' '): string {
  const identifier = level.identifier.trim()
  const title = level.title.trim()
  if (title === '') return identifier
  if (identifier === '' || title.toLowerCase().startsWith(identifier.toLowerCase())) return title
  return `${identifier}${separator}${title}`
}

/**
 * levelsDisjoint reports whether no requirement belongs to two levels while at least two
 * levels hold requirements: each level then lists only its own requirements, not those of
 * the levels below it. `memberships` are the level ids of each requirement.
 */
export function levelsDisjoint(memberships: readonly (readonly string[])[]): boolean {
  const used = new Set<string>()
  for (const levels of memberships) {
    if (levels.length > 1) return false
    for (const level of levels) used.add(level)
  }
  return used.size > 1
}

/**
 * levelsLookDisjoint guesses the same from the levels' sizes alone, where the memberships
 * are not at hand (the assessment form): a higher level (later position) that holds fewer
 * requirements than a lower one cannot include it.
 */
export function levelsLookDisjoint(levels: readonly { position: number; requirementCount: number }[]): boolean {
  const ordered = [...levels].sort((a, b) => a.position - b.position)
  return ordered.some((level, i) => i > 0 && level.requirementCount < ordered[i - 1]!.requirementCount)
}
