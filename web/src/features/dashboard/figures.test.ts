import { describe, expect, it } from 'vitest'
import type { Dashboard } from './api'
import { chartValue, conformanceOf, kpisOf, pipelineOf } from './figures'

const DASHBOARD: Dashboard = {
  generatedAt: '2026-11-28T10:00:00Z',
  expiringDays: 30,
  assessments: {
    total: 10,
    overdue: 2,
    byState: [
      { state: 'new', count: 1 },
      { state: 'in_progress', count: 5 },
      { state: 'complete', count: 3 },
      { state: 'cancelled', count: 1 },
    ],
  },
  evidence: { total: 7, inReview: 3, expiring: 1, expired: 0, byState: [] },
  attestations: { total: 2, sealed: 2, expiring: 0, byState: [{ state: 'sealed', count: 2 }] },
  conformance: [
    { standardId: 'st_1', name: 'ASVS', standardVersion: '5.0.0', assessments: 3, averageScore: 81.5, yes: 1, partial: 1, no: 1, notApplicable: 0 },
    { standardId: 'st_2', name: 'SSDF', standardVersion: '', assessments: 1, averageScore: null, yes: 0, partial: 0, no: 0, notApplicable: 2 },
  ],
  upcoming: [],
  weakestRequirements: [],
  expiringCited: [],
  recentActivity: [],
}

describe('dashboard figures', () => {
  it('counts open assessments and links each figure to its filtered list', () => {
    const kpis = kpisOf(DASHBOARD)
    expect(kpis.map((k) => [k.key, k.value])).toEqual([
      ['openAssessments', 6],
      ['overdue', 2],
      ['inReview', 3],
      ['evidenceExpiring', 1],
      ['sealed', 2],
      ['attestationsExpiring', 0],
    ])
    expect(kpis[1]).toMatchObject({ to: { name: 'assessments', query: { due: 'overdue' } }, tone: 'danger' })
    expect(kpis[3]).toMatchObject({ to: { name: 'evidence', query: { expiringWithin: '30', sort: 'validUntil' } } })
  })
  it('labels the pipeline and leaves unscored standards out of conformance', () => {
    expect(pipelineOf(DASHBOARD, (s) => s.toUpperCase())[1]).toEqual({ label: 'IN_PROGRESS', value: 5 })
    expect(conformanceOf(DASHBOARD)).toEqual([{ label: 'ASVS 5.0.0', value: 81.5 }])
  })
})

describe('chartValue', () => {
  it('groups digits and writes decimals as the viewer\'s language does', () => {
    expect(chartValue(12345, '', 'de')).toBe('12.345')
    expect(chartValue(12345, '', 'en')).toBe('12,345')
    expect(chartValue(87.5, '%', 'de')).toBe('87,5 %')
    expect(chartValue(87.5, '%', 'en')).toBe('87.5 %')
    expect(chartValue(2.25, undefined, 'en')).toBe('2.3')
  })
})
