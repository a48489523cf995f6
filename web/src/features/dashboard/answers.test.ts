import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { describe, expect, it, vi } from 'vitest'
import { createAppI18n } from '../../app/i18n'
import { settle } from '../../app/testing'
import { ANSWER_COLORS, answersOf } from './answers'
import type { Dashboard } from './api'
import DashboardWidget from './DashboardWidget.vue'

// ECharts needs a real browser: the donut is a stand-in that shows what it was given.
vi.mock('./donutChartAsync', () => ({
  DonutChartAsync: { props: ['items', 'colors', 'label'], template: '<div class="donut" :data-slices="colors.length">{{ label }}</div>' },
}))

const standard = (name: string, yes: number, partial: number, no: number, notApplicable: number) =>
  ({ standardId: `st_${name}`, name, standardVersion: '1', assessments: 1, averageScore: 50, yes, partial, no, notApplicable })

const dashboardOf = (conformance: Dashboard['conformance']): Dashboard => ({
  generatedAt: '2026-11-28T10:00:00Z',
  expiringDays: 30,
  assessments: { total: 0, overdue: 0, byState: [] },
  evidence: { total: 0, inReview: 0, expiring: 0, expired: 0, byState: [] },
  attestations: { total: 0, sealed: 0, expiring: 0, byState: [] },
  conformance,
  upcoming: [],
  weakestRequirements: [],
  expiringCited: [],
  recentActivity: [],
})

const FINISHED = dashboardOf([standard('ASVS', 3, 1, 1, 0), standard('SSDF', 2, 0, 4, 5)])

function mountWidget(dashboard: Dashboard | null) {
  const pinia = createPinia()
  setActivePinia(pinia)
  return mount(DashboardWidget, { props: { widget: 'answers', dashboard, loading: false }, global: { plugins: [pinia, createAppI18n('en')] } })
}

describe('answersOf', () => {
  it('sums each result over every standard, in the order yes, partial, no, not applicable', () => {
    expect(answersOf(FINISHED, (r) => r)).toEqual([
      { label: 'yes', value: 5 },
      { label: 'partial', value: 1 },
      { label: 'no', value: 5 },
      { label: 'not_applicable', value: 5 },
    ])
    expect(ANSWER_COLORS).toHaveLength(4)
  })

  it('has nothing to show without a finished assessment', () => {
    expect(answersOf(dashboardOf([]), (r) => r)).toEqual([])
    expect(answersOf(dashboardOf(null), (r) => r)).toEqual([])
    expect(answersOf(dashboardOf([standard('ASVS', 0, 0, 0, 0)]), (r) => r)).toEqual([])
  })
})

describe('the answers widget', () => {
  it('draws a donut of the four results and offers them as a table', async () => {
    const wrapper = mountWidget(FINISHED)
    await settle()
    expect(wrapper.get('[data-test="chart-answers"] h2').text()).toBe('Answers in finished assessments')
    const donut = wrapper.get('.donut')
    expect(donut.attributes('data-slices')).toBe('4')
    expect(donut.text()).toBe('Answers in finished assessments')

    await wrapper.get('[data-test="chart-answers-table-toggle"]').trigger('click')
    await settle()
    const rows = wrapper.findAll('[data-test="chart-answers-table"] tbody tr').map((r) => r.findAll('td').map((td) => td.text()))
    expect(rows).toEqual([
      ['Yes', '5'],
      ['Partial', '1'],
      ['No', '5'],
      ['Not applicable', '5'],
    ])
    expect(wrapper.get('[data-test="chart-answers-table"]').text()).toContain('Answers')
    expect(wrapper.find('.donut').exists()).toBe(false)
  })

  it('says so when no assessment is finished', async () => {
    const wrapper = mountWidget(dashboardOf([]))
    await settle()
    expect(wrapper.get('[data-test="chart-answers"]').text()).toContain('No finished assessment yet.')
    expect(wrapper.find('.donut').exists()).toBe(false)
  })
})
