import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { createAppI18n } from '../../app/i18n'
import { usePreferencesStore } from '../../app/preferences'
import { settle } from '../../app/testing'
import { fetchDashboard, fetchHealth, type Dashboard } from './api'
import DashboardPage from './DashboardPage.vue'

vi.mock('./api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./api')>()),
  fetchDashboard: vi.fn(),
  fetchHealth: vi.fn(),
}))

const DASHBOARD: Dashboard = {
  generatedAt: '2026-11-28T10:00:00Z',
  expiringDays: 30,
  assessments: { total: 4, overdue: 1, byState: [{ state: 'in_progress', count: 3 }, { state: 'complete', count: 1 }] },
  evidence: { total: 5, inReview: 2, expiring: 1, expired: 0, byState: [] },
  attestations: { total: 1, sealed: 1, expiring: 1, byState: [{ state: 'sealed', count: 1 }] },
  conformance: [{ standardId: 'st_1', name: 'ASVS', standardVersion: '5.0.0', assessments: 1, averageScore: 82.54, yes: 3, partial: 1, no: 1, notApplicable: 0 }],
  upcoming: [{ id: 'as_1', title: 'Payments review', entityName: 'Shop', state: 'in_progress', dueDate: '2026-11-20', overdue: true }],
  weakestRequirements: [{ requirementId: 'rq_1', identifier: 'V2.1.1', name: 'Password length', standardId: 'st_1', standardName: 'ASVS', answered: 2, no: 1, partial: 1, score: 25 }],
  expiringCited: [{ id: 'ev_1', name: 'Pentest report', validUntil: '2026-12-01', expired: false, attestationId: 'at_1', assessmentTitle: 'Payments review' }],
}

const stub = { template: '<div />' }

async function mountPage() {
  const pinia = createPinia()
  setActivePinia(pinia)
  usePreferencesStore().setLocale('en')
  const router = createRouter({
    history: createMemoryHistory(),
    routes: ['/', '/assessments', '/assessments/:id', '/evidence', '/evidence/:id', '/attestations', '/attestations/:id'].map((path, i) => ({
      path,
      name: ['dashboard', 'assessments', 'assessment', 'evidence', 'evidence-detail', 'attestations', 'attestation'][i],
      component: stub,
    })),
  })
  const wrapper = mount(DashboardPage, { attachTo: document.body, global: { plugins: [pinia, router, createAppI18n('en')] } })
  await settle()
  return wrapper
}

describe('DashboardPage', () => {
  afterEach(() => {
    document.body.innerHTML = ''
  })

  it('shows the key figures as links to the lists they count, and the lists', async () => {
    vi.mocked(fetchDashboard).mockResolvedValue(DASHBOARD)
    vi.mocked(fetchHealth).mockResolvedValue({ status: 'ok' } as never)
    const wrapper = await mountPage()
    const overdue = wrapper.get('[data-test="kpi-overdue"]')
    expect(overdue.text()).toContain('1')
    expect(overdue.attributes('href')).toBe('/assessments?due=overdue')
    expect(wrapper.get('[data-test="kpi-openAssessments"]').text()).toContain('3')
    expect(wrapper.get('[data-test="dashboard-upcoming"]').text()).toContain('Payments review')
    expect(wrapper.get('[data-test="dashboard-upcoming"]').text()).toContain('overdue since')
    expect(wrapper.get('[data-test="dashboard-weakest"]').text()).toContain('V2.1.1')
    expect(wrapper.get('[data-test="dashboard-cited"]').text()).toContain('Pentest report')
  })

  it('offers every chart as a table', async () => {
    vi.mocked(fetchDashboard).mockResolvedValue(DASHBOARD)
    const wrapper = await mountPage()
    await wrapper.get('[data-test="chart-conformance-table-toggle"]').trigger('click')
    await settle()
    const table = wrapper.get('[data-test="chart-conformance-table"]')
    expect(table.text()).toContain('ASVS 5.0.0')
    expect(table.text()).toContain('82.54%')
  })
})
