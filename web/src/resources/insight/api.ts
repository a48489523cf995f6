import { api, timeoutSignal, unwrap } from '../../api/client'
import type { components, operations } from '../../api/schema'
import type { PickerChoice } from '../catalogue/api'

// Progress over time and the portfolio (docs/assessments.md, "Progress over time and
// portfolio"): an entity's scores and the entities × standards heat map, both counting only
// the assessments the viewer may open (the server scopes them).

type Schemas = components['schemas']

/** ScoreHistory is an entity's results over time, oldest first. */
export type ScoreHistory = Schemas['ScoreHistory']

/** ScorePoint is one finished assessment's score for one of its standards. */
export type ScorePoint = Schemas['ScorePoint']

/** Portfolio is a page of entity rows against the standards. */
export type Portfolio = Schemas['Portfolio']

/** PortfolioRow is one entity with its cells. */
export type PortfolioRow = Schemas['PortfolioRow']

/** PortfolioCell is an entity's latest result against one standard. */
export type PortfolioCell = Schemas['PortfolioCell']

/** PortfolioStandard is a column of the portfolio. */
export type PortfolioStandard = Schemas['PortfolioStandard']

/** PortfolioFilters narrow the portfolio (everything of its query but the page). */
export type PortfolioFilters = Omit<NonNullable<operations['getPortfolio']['parameters']['query']>, 'cursor' | 'limit'>

/** PORTFOLIO_PAGE_SIZE is how many entity rows one page of the heat map shows. */
export const PORTFOLIO_PAGE_SIZE = 50

/** fetchScoreHistory reads the results of an entity that the viewer may see. */
export function fetchScoreHistory(entityId: string): Promise<ScoreHistory> {
  return unwrap(api.GET('/api/v1/entities/{id}/score-history', { params: { path: { id: entityId } }, signal: timeoutSignal(20_000) }))
}

/** fetchPortfolio reads one page of the portfolio (from `cursor`, the first page without). */
export function fetchPortfolio(filters: PortfolioFilters, cursor?: string): Promise<Portfolio> {
  const query = { ...withoutBlanks(filters), limit: PORTFOLIO_PAGE_SIZE, ...(cursor ? { cursor } : {}) }
  return unwrap(api.GET('/api/v1/portfolio', { params: { query }, signal: timeoutSignal(20_000) }))
}

/** withoutBlanks drops the filters that are not set, so they stay out of the URL. */
function withoutBlanks(filters: PortfolioFilters): PortfolioFilters {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(filters)) {
    if (typeof value === 'string' && value.trim() !== '') out[key] = value.trim()
  }
  return out as PortfolioFilters
}

/** projectChoices searches projects by name for the portfolio's project filter. */
export async function projectChoices(q: string): Promise<PickerChoice[]> {
  const text = q.trim()
  const page = await unwrap(api.GET('/api/v1/projects', { params: { query: { ...(text ? { q: text } : {}), limit: 20 } } }))
  return (page.items ?? []).map((project) => ({ value: project.id, label: project.name }))
}

/** fetchProjectChoice reads one project as the filter shows it (its name), for a project chosen before. */
export async function fetchProjectChoice(id: string): Promise<PickerChoice> {
  const project = await unwrap(api.GET('/api/v1/projects/{id}', { params: { path: { id } } }))
  return { value: project.id, label: project.name }
}
