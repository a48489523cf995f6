import { api, timeoutSignal, unwrap } from '../../api/client'
import type { components } from '../../api/schema'
import type { Tile } from './layout'

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

/** DashboardActivity is one recent change under an assessment the caller may see: the assessment and its timeline entry. */
export type DashboardActivity = components['schemas']['DashboardActivity']

/** fetchDashboard reads the caller's dashboard. */
export function fetchDashboard(): Promise<Dashboard> {
  return unwrap(api.GET('/api/v1/dashboard', { signal: timeoutSignal(20_000) }))
}

/** DashboardLayout is the caller's layout: the one they saved, or their role's default (isDefault). */
export type DashboardLayout = components['schemas']['DashboardLayout']

/** fetchDashboardLayout reads the caller's dashboard layout. */
export function fetchDashboardLayout(): Promise<DashboardLayout> {
  return unwrap(api.GET('/api/v1/me/dashboard-layout', { signal: timeoutSignal(10_000) }))
}

/** saveDashboardLayout keeps `widgets` as the caller's layout and answers it as kept. */
export function saveDashboardLayout(widgets: Tile[]): Promise<DashboardLayout> {
  return unwrap(api.PUT('/api/v1/me/dashboard-layout', { body: { widgets } }))
}

/** resetDashboardLayout forgets the caller's layout and answers their role's default. */
export function resetDashboardLayout(): Promise<DashboardLayout> {
  return unwrap(api.DELETE('/api/v1/me/dashboard-layout'))
}
