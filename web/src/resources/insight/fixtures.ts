import type { Portfolio, ScoreHistory, ScorePoint } from './api'

// Records of the insight tests (only tests import this module).

/** point is a score point of ASVS 5.0.0 unless overridden. */
export function point(over: Partial<ScorePoint>): ScorePoint {
  return {
    assessmentId: 'as_1',
    assessmentTitle: 'First review',
    state: 'complete',
    completedAt: '2026-01-10T09:00:00Z',
    standardId: 'st_asvs',
    standardName: 'ASVS',
    standardVersion: '5.0.0',
    score: 50,
    ...over,
  }
}

/** HISTORY is an entity's points: two of ASVS (one with a level), one of SSDF without a score. */
export const HISTORY: ScoreHistory = {
  entityId: 'en_shop',
  truncated: false,
  points: [
    point({}),
    point({ standardId: 'st_ssdf', standardName: 'SSDF', standardVersion: '1.1', score: null }),
    point({ assessmentId: 'as_2', assessmentTitle: 'Second review', completedAt: '2026-03-05T09:00:00Z', score: 87.5, levelName: 'Level 1' }),
  ],
}

/** PORTFOLIO is a page of two entities against two standards (Other has no ASVS result). */
export const PORTFOLIO: Portfolio = {
  standards: [
    { id: 'st_asvs', name: 'ASVS', version: '5.0.0' },
    { id: 'st_ssdf', name: 'SSDF', version: '1.1' },
  ],
  standardsTruncated: false,
  total: 2,
  hasMore: false,
  items: [
    {
      entityId: 'en_other',
      entityName: 'Other',
      entityType: 'service',
      cells: [{ standardId: 'st_ssdf', assessmentId: 'as_o', assessmentTitle: 'Their review', completedAt: '2026-02-20T09:00:00Z', score: 40, completed: 1 }],
    },
    {
      entityId: 'en_shop',
      entityName: 'Shop',
      entityType: 'product',
      cells: [
        { standardId: 'st_asvs', assessmentId: 'as_2', assessmentTitle: 'Second review', completedAt: '2026-03-05T09:00:00Z', score: 87.5, completed: 2 },
        { standardId: 'st_ssdf', assessmentId: 'as_1', assessmentTitle: 'First review', completedAt: '2026-01-10T09:00:00Z', score: null, completed: 1 },
      ],
    },
  ],
}
