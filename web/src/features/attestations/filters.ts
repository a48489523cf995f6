import type { LocationQuery, LocationQueryRaw } from 'vue-router'
import { queryChoice, queryText } from '../../app/queryFilters'
import { ATTESTATION_STATES, type AttestationState } from './types'

// The attestation list's filters, kept in the URL's query (GET /attestations filters them).

/** ATTESTATION_PAGE_SIZE is how many attestations one page lists. */
export const ATTESTATION_PAGE_SIZE = 50

/** AttestationFilters narrow the list; '' means "any". */
export interface AttestationFilters {
  state: AttestationState | ''
  /** assessment narrows to the attestations of one assessment (as_…). */
  assessment: string
}

/** AttestationQuery is the query string of GET /api/v1/attestations. */
export interface AttestationQuery {
  state?: AttestationState
  assessment?: string
  cursor?: string
  limit: number
}

/** attestationFiltersFromQuery reads the filters from a route's query, ignoring what it does not know. */
export function attestationFiltersFromQuery(query: LocationQuery): AttestationFilters {
  return {
    state: queryChoice(queryText(query.state), ATTESTATION_STATES, ''),
    assessment: queryText(query.assessment),
  }
}

/** attestationQuery is the list's query, leaving out what does not narrow it. */
export function attestationQuery(filters: AttestationFilters, cursor?: string): AttestationQuery {
  const query: AttestationQuery = { limit: ATTESTATION_PAGE_SIZE }
  if (filters.state !== '') query.state = filters.state
  if (filters.assessment !== '') query.assessment = filters.assessment
  if (cursor) query.cursor = cursor
  return query
}

/** attestationFiltersToQuery writes the filters into a route query. */
export function attestationFiltersToQuery(filters: AttestationFilters): LocationQueryRaw {
  const { limit: _limit, ...rest } = attestationQuery(filters)
  return rest
}

/** activeFilterCount counts the filters that narrow the list (for the phone's Filters button). */
export function activeFilterCount(filters: AttestationFilters): number {
  return filters.state === '' ? 0 : 1
}
