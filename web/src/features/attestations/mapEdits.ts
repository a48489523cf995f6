import type { MapChange, MapEntry } from './types'

// The map editor's working copy: per requirement the score override and the confidence as
// percentages (what people type), and the confidence rationale; the changed ones become
// the body of POST /attestations/{id}/requirements/bulk as fractions of 1.

/** MapEdit is one requirement's editable values; null percentages mean "none". */
export interface MapEdit {
  override: number | null
  confidence: number | null
  rationale: string
}

/** toPercent turns a 0–1 fraction into a percentage with at most two decimals. */
export function toPercent(value: number | null | undefined): number | null {
  return value === null || value === undefined ? null : Math.round(value * 10000) / 100
}

/** toFraction turns a percentage into a 0–1 fraction (four decimals at most). */
export function toFraction(percent: number | null): number | null {
  return percent === null ? null : Math.round(percent * 100) / 10000
}

/** editOf is the working copy of an entry as the server has it. */
export function editOf(entry: MapEntry): MapEdit {
  return { override: toPercent(entry.scoreOverride), confidence: toPercent(entry.confidence), rationale: entry.confidenceRationale ?? '' }
}

/** sameEdit tells whether two working copies say the same (rationale compared trimmed). */
export function sameEdit(a: MapEdit, b: MapEdit): boolean {
  return a.override === b.override && a.confidence === b.confidence && a.rationale.trim() === b.rationale.trim()
}

/** effectiveScore is the score that goes into the attestation: the override, else the derived one (0–1). */
export function effectiveScore(entry: MapEntry, edit: MapEdit): number | null {
  return edit.override !== null ? toFraction(edit.override) : entry.derivedScore
}

/** changesOf lists the requirements whose working copy differs from the server's, as the bulk body's items. */
export function changesOf(entries: readonly MapEntry[], edits: Readonly<Record<string, MapEdit>>): MapChange[] {
  const out: MapChange[] = []
  for (const entry of entries) {
    const edit = edits[entry.id]
    if (!edit || sameEdit(edit, editOf(entry))) continue
    out.push({
      id: entry.id,
      scoreOverride: toFraction(edit.override),
      confidence: toFraction(edit.confidence),
      // The server refuses a rationale without a confidence; clearing the confidence clears it.
      confidenceRationale: edit.confidence === null ? '' : edit.rationale.trim(),
    })
  }
  return out
}
