import type { LocationQuery, LocationQueryRaw } from 'vue-router'
import { queryChoice, queryText } from '../../app/queryFilters'
import type { AssertSame } from '../../resources/catalogue/api'
import { ENTITY_TYPES } from '../../resources/catalogue/entityTypes'
import type { PortfolioFilters } from '../../resources/insight/api'

// The portfolio page's filters, kept in the URL's query.

/** PORTFOLIO_ENTITY_TYPES lists the entity types the filter offers: all of them. */
export const PORTFOLIO_ENTITY_TYPES = ENTITY_TYPES

/** PORTFOLIO_ENTITY_TYPES_COMPLETE proves that the filter takes exactly the entity types. */
export const PORTFOLIO_ENTITY_TYPES_COMPLETE: AssertSame<
  Exclude<NonNullable<PortfolioFilters['entityType']>, ''>,
  (typeof PORTFOLIO_ENTITY_TYPES)[number]
> = true

/** PortfolioPageFilters are the page's filters as the form holds them ('' for none). */
export interface PortfolioPageFilters {
  q: string
  project: string
  entityType: (typeof PORTFOLIO_ENTITY_TYPES)[number] | ''
}

/** portfolioFiltersFromQuery reads the filters from a URL's query, ignoring what it does not know. */
export function portfolioFiltersFromQuery(query: LocationQuery): PortfolioPageFilters {
  return {
    q: queryText(query.q),
    project: queryText(query.project),
    entityType: queryChoice(queryText(query.entityType), PORTFOLIO_ENTITY_TYPES, ''),
  }
}

/** portfolioFiltersToQuery writes the filters that are set into a URL's query. */
export function portfolioFiltersToQuery(f: PortfolioPageFilters): LocationQueryRaw {
  const out: LocationQueryRaw = {}
  if (f.q.trim()) out.q = f.q.trim()
  if (f.project) out.project = f.project
  if (f.entityType) out.entityType = f.entityType
  return out
}

/** activeFilterCount counts the filters that are set (the phone's Filters button shows it). */
export function activeFilterCount(f: PortfolioPageFilters): number {
  return [f.q.trim(), f.project, f.entityType].filter(Boolean).length
}
