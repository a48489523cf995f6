// Test fixtures of the standards pages: standards and feed items as the API answers them.
import type { FeedItem } from './api'
import type { Standard } from './types'

/** standard builds a standard; `over` replaces fields. */
export function standard(over: Partial<Standard> = {}): Standard {
  return {
    id: 'st_1',
    identifier: 'owasp-asvs',
    standardVersion: '5.0.0',
    name: 'OWASP ASVS',
    description: 'Verification requirements',
    owner: 'OWASP',
    state: 'draft',
    source: 'manual',
    requirementCount: 3,
    levelCount: 1,
    externalReferences: [],
    tags: [{ id: 'tg_1', name: 'Web', color: '#2563eb' }],
    version: 4,
    createdAt: '2026-01-01T10:00:00Z',
    updatedAt: '2026-01-02T10:00:00Z',
    createdBy: 'u_author',
    ...over,
  }
}

/** feedItem builds an item of the standards feed. */
export function feedItem(over: Partial<FeedItem> = {}): FeedItem {
  return {
    id: 'application-security-verification-standard-asvs-@5.0.0',
    identifier: 'application-security-verification-standard-asvs',
    title: 'Application Security Verification Standard (ASVS)',
    summary: 'A list of application security requirements.',
    version: '5.0.0',
    owner: 'OWASP',
    url: 'https://example.com/asvs.cdx.json',
    status: 'not_imported',
    standardIds: [],
    ...over,
  }
}
