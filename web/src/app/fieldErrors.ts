import type { ApiError } from '../api/errors'

/** PlacedErrors are a failure's details sorted onto the fields of a form. */
export interface PlacedErrors<F extends string> {
  /** fields maps each form field to the server's message about it ('' when none). */
  fields: Record<F, string>
  /** unplaced is true when something remains that no field shows: show an alert then. */
  unplaced: boolean
}

/**
 * placeFieldErrors sorts the details of a failed call onto the form's fields. The
 * server names a field as the JSON body does (`email`), sometimes prefixed with
 * `body.`; `aliases` maps other names onto form fields.
 */
export function placeFieldErrors<F extends string>(
  error: ApiError,
  fields: readonly F[],
  aliases: Partial<Record<string, F>> = {},
): PlacedErrors<F> {
  const placed = Object.fromEntries(fields.map((field) => [field, ''])) as Record<F, string>
  let unplaced = error.details.length === 0
  for (const detail of error.details) {
    const name = (detail.field ?? '').replace(/^body\./, '')
    const field = (fields as readonly string[]).includes(name) ? (name as F) : aliases[name]
    if (field && detail.message) placed[field] = placed[field] || detail.message
    else unplaced = true
  }
  return { fields: placed, unplaced }
}
