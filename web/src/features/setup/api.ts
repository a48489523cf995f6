import { api, unwrap } from '../../api/client'
import type { components } from '../../api/schema'
import type { Me } from '../../app/session/api'

/** FirstAdministrator is what the wizard submits to create the first account. */
export type FirstAdministrator = components['schemas']['NewAccount']

/**
 * createFirstAdministrator creates the first administrator (POST /api/v1/setup,
 * 201 on success); the server signs them in at once by setting the session cookie.
 * Failures reject with an ApiError carrying the server's envelope.
 */
export function createFirstAdministrator(account: FirstAdministrator): Promise<Me> {
  return unwrap(api.POST('/api/v1/setup', { body: account }))
}

/** ImportResult is what importing standards answers: each standard with its outcome. */
export type ImportResult = components['schemas']['ImportResult']

/** DemoDataSummary is what loading the demo data answers: the counts created, or alreadyLoaded. */
export type DemoDataSummary = components['schemas']['DemoDataSummary']

/**
 * importStarterStandards imports the starter standards missing here from the standards
 * feed (POST /api/v1/standards/starter; 201 when one was created, 200 when all were
 * present). It needs the server to reach the feed: 422 fetch_failed or url_not_allowed
 * otherwise.
 */
export function importStarterStandards(): Promise<ImportResult> {
  return unwrap(api.POST('/api/v1/standards/starter'))
}

/** loadDemoData loads the demo organisation once (POST /api/v1/admin/demo-data); again, it answers alreadyLoaded. */
export function loadDemoData(): Promise<DemoDataSummary> {
  return unwrap(api.POST('/api/v1/admin/demo-data'))
}
