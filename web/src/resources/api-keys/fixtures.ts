import { vi } from 'vitest'
import type * as ApiKeys from './api'

// The API key calls mocked, for tests (only tests import this module).

/**
 * mockedApiKeys is the API keys module `actual` with its calls mocked (`list` answering as
 * the test needs); apiKeysFor hands the same mocks out, as the cards use them.
 */
export function mockedApiKeys(actual: typeof ApiKeys, list = vi.fn()) {
  const calls = { list, create: vi.fn(), revoke: vi.fn() }
  return { ...actual, listApiKeys: calls.list, createApiKey: calls.create, revokeApiKey: calls.revoke, apiKeysFor: () => calls }
}
