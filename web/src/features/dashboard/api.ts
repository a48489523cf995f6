import { api, timeoutSignal, unwrap } from '../../api/client'
import type { components } from '../../api/schema'

/** Health is the service's self-check (GET /api/health). */
export type Health = components['schemas']['Health']

/** API_DOCS_URL is where the server serves the interactive API documentation. */
export const API_DOCS_URL = '/api/v1/docs'

/**
 * fetchHealth reads the service's health. A failing check (503) rejects with an
 * ApiError whose message is the server's explanation.
 */
export function fetchHealth(): Promise<Health> {
  return unwrap(api.GET('/api/health', { signal: timeoutSignal(5_000) }))
}

/** Dashboard is every figure of the caller's dashboard, scoped to what they may open. */
export type Dashboard = components['schemas']['Dashboard']

/** fetchDashboard reads the caller's dashboard. */
export function fetchDashboard(): Promise<Dashboard> {
  return unwrap(api.GET('/api/v1/dashboard', { signal: timeoutSignal(20_000) }))
}
