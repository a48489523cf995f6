import { mount } from '@vue/test-utils'
import { ElMessageBox } from 'element-plus'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { createAppI18n } from '../../app/i18n'
import { usePreferencesStore } from '../../app/preferences'
import { settle } from '../../app/testing'
import { ApiError } from '../../api/client'
import {
  fetchDashboard,
  fetchDashboardLayout,
  fetchHealth,
  resetDashboardLayout,
  saveDashboardLayout,
  type Dashboard,
  type DashboardLayout,
} from './api'
import DashboardPage from './DashboardPage.vue'
import type { Tile } from './layout'
import { WIDGET_IDS } from './widgets'

// The charts' tables are what these tests read; ECharts needs a real browser.
vi.mock('./barChartAsync', () => ({ BarChartAsync: { template: '<div class="bar-chart" />' } }))
vi.mock('./donutChartAsync', () => ({ DonutChartAsync: { template: '<div class="donut-chart" />' } }))
vi.mock('./api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./api')>()),
  fetchDashboard: vi.fn(),
  fetchHealth: vi.fn(),
  fetchDashboardLayout: vi.fn(),
  saveDashboardLayout: vi.fn(),
  resetDashboardLayout: vi.fn(),
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
  recentActivity: [
    {
      assessmentId: 'as_1',
      assessmentTitle: 'Payments review',
      entry: {
        id: 7, occurredAt: '2026-11-28T09:00:00Z', actor: { id: 'us_ada', username: 'ada', displayName: 'Ada' }, action: 'evidence.approved',
        targetType: 'evidence', targetId: 'ev_1', targetName: 'Pentest report', targetLink: '/evidence/ev_1', details: {},
      },
    },
  ],
}

// EVERYTHING shows every widget of today's page; ASSESSOR is a role's default of three.
const EVERYTHING: Tile[] = [
  { widget: 'openAssessments', x: 0, y: 0, w: 2, h: 2 },
  { widget: 'overdueAssessments', x: 2, y: 0, w: 2, h: 2 },
  { widget: 'assessmentPipeline', x: 0, y: 2, w: 6, h: 7 },
  { widget: 'conformance', x: 6, y: 2, w: 6, h: 7 },
  { widget: 'upcomingDueDates', x: 0, y: 9, w: 6, h: 7 },
  { widget: 'weakestRequirements', x: 6, y: 9, w: 6, h: 7 },
  { widget: 'expiringCitedEvidence', x: 0, y: 16, w: 12, h: 5 },
  { widget: 'recentActivity', x: 0, y: 21, w: 12, h: 7 },
]
const ASSESSOR: Tile[] = [
  { widget: 'overdueAssessments', x: 0, y: 0, w: 3, h: 2 },
  { widget: 'upcomingDueDates', x: 0, y: 2, w: 6, h: 7 },
  { widget: 'conformance', x: 6, y: 2, w: 6, h: 7 },
]
const layoutOf = (widgets: Tile[], isDefault = true): DashboardLayout => ({
  widgets,
  isDefault,
  defaultRole: 'assessor',
  catalogue: [...WIDGET_IDS],
  ...(isDefault ? {} : { updatedAt: '2026-11-28T10:00:00Z' }),
})

const stub = { template: '<div />' }

async function mountPage(locale: 'en' | 'de' = 'en') {
  const pinia = createPinia()
  setActivePinia(pinia)
  usePreferencesStore().setLocale(locale)
  const router = createRouter({
    history: createMemoryHistory(),
    routes: ['/', '/assessments', '/assessments/:id', '/evidence', '/evidence/:id', '/attestations', '/attestations/:id'].map((path, i) => ({
      path,
      name: ['dashboard', 'assessments', 'assessment', 'evidence', 'evidence-detail', 'attestations', 'attestation'][i],
      component: stub,
    })),
  })
  const wrapper = mount(DashboardPage, { attachTo: document.body, global: { plugins: [pinia, router, createAppI18n(locale)] } })
  await settle()
  return wrapper
}

/** shown is the widgets the page shows, in the order of the page. */
const shown = () => [...document.querySelectorAll<HTMLElement>('[data-widget]')].map((el) => el.dataset.widget)
const click = (selector: string) => document.querySelector<HTMLElement>(selector)!.click()
const menuItem = (widget: string, text: string) =>
  [...document.querySelectorAll<HTMLElement>(`.dash-menu--${widget} .el-dropdown-menu__item`)].find((item) => item.textContent?.trim() === text)!

describe('DashboardPage', () => {
  beforeEach(() => {
    vi.mocked(fetchDashboard).mockResolvedValue(DASHBOARD)
    vi.mocked(fetchHealth).mockResolvedValue({ status: 'ok' } as never)
    vi.mocked(fetchDashboardLayout).mockResolvedValue(layoutOf(EVERYTHING, false))
  })
  afterEach(() => {
    vi.clearAllMocks()
    document.body.innerHTML = ''
  })

  it('shows the key figures as links to the lists they count, and the lists', async () => {
    const wrapper = await mountPage()
    const overdue = wrapper.get('[data-test="kpi-overdue"]')
    expect(overdue.text()).toContain('1')
    expect(overdue.attributes('href')).toBe('/assessments?due=overdue')
    expect(wrapper.get('[data-test="kpi-openAssessments"]').text()).toContain('3')
    expect(wrapper.get('[data-test="dashboard-upcoming"]').text()).toContain('Payments review')
    expect(wrapper.get('[data-test="dashboard-upcoming"]').text()).toContain('overdue since')
    expect(wrapper.get('[data-test="dashboard-weakest"]').text()).toContain('V2.1.1')
    expect(wrapper.get('[data-test="dashboard-cited"]').text()).toContain('Pentest report')
    expect(wrapper.get('[data-test="dashboard-activity"]').text()).toContain('Ada approved “Pentest report”')
  })

  it('writes the weakest requirements\' mean score as the reader\'s language writes numbers', async () => {
    vi.mocked(fetchDashboard).mockResolvedValue({ ...DASHBOARD, weakestRequirements: [{ ...DASHBOARD.weakestRequirements![0]!, score: 16.666666 }] })
    expect((await mountPage('de')).get('[data-test="dashboard-weakest"]').text()).toContain('16,7 % im Mittel')
    document.body.innerHTML = ''
    expect((await mountPage('en')).get('[data-test="dashboard-weakest"]').text()).toContain('16.7 % mean')
  })

  it('words the weakest requirements\' answers with plural forms, naming only the results that occurred', async () => {
    const weak = DASHBOARD.weakestRequirements![0]!
    vi.mocked(fetchDashboard).mockResolvedValue({ ...DASHBOARD, weakestRequirements: [
      { ...weak, requirementId: 'rq_1', answered: 1, no: 1, partial: 0, score: 0 },
      { ...weak, requirementId: 'rq_2', answered: 5, no: 2, partial: 1, score: 50 },
      { ...weak, requirementId: 'rq_3', answered: 3, no: 0, partial: 1, score: 83.3 },
    ] })
    const tallies = async (locale: 'en' | 'de') => (await mountPage(locale)).findAll('[data-test="dashboard-weakest-tally"]').map((w) => w.text())
    expect(await tallies('en')).toEqual([
      '0 % mean · “No” in 1 of 1 answer',
      '50 % mean · “No” in 2 and “Partial” in 1 of 5 answers',
      '83.3 % mean · “Partial” in 1 of 3 answers',
    ])
    document.body.innerHTML = ''
    expect(await tallies('de')).toEqual([
      '0 % im Mittel · „Nein“ in 1 von 1 Antwort',
      '50 % im Mittel · „Nein“ in 2 und „Teilweise“ in 1 von 5 Antworten',
      '83,3 % im Mittel · „Teilweise“ in 1 von 3 Antworten',
    ])
  })

  it('tells an empty list of weakest requirements apart from one where nothing was answered yet', async () => {
    vi.mocked(fetchDashboard).mockResolvedValue({ ...DASHBOARD, weakestRequirements: [] })
    expect((await mountPage()).get('[data-test="dashboard-weakest-empty"]').text()).toBe('Every answered requirement was met.')
    document.body.innerHTML = ''
    vi.mocked(fetchDashboard).mockResolvedValue({ ...DASHBOARD, weakestRequirements: [], conformance: [] })
    expect((await mountPage()).get('[data-test="dashboard-weakest-empty"]').text()).toBe('No finished assessment has answers yet.')
    document.body.innerHTML = ''
    vi.mocked(fetchDashboard).mockResolvedValue({ ...DASHBOARD, weakestRequirements: [], conformance: [{ ...DASHBOARD.conformance![0]!, yes: 0, partial: 0, no: 0, notApplicable: 4 }] })
    expect((await mountPage('de')).get('[data-test="dashboard-weakest-empty"]').text()).toBe('Noch hat keine abgeschlossene Bewertung Antworten.')
  })

  it('offers every chart as a table', async () => {
    const wrapper = await mountPage()
    // The words beside the switch are no label of its input, so it carries a name of its own.
    expect(wrapper.get('[data-test="chart-conformance-table-toggle"] input').attributes('aria-label')).toBe('Table instead of the chart')
    await wrapper.get('[data-test="chart-conformance-table-toggle"]').trigger('click')
    await settle()
    const table = wrapper.get('[data-test="chart-conformance-table"]')
    expect(table.text()).toContain('ASVS 5.0.0')
    expect(table.text()).toContain('82.54%')
  })

  it('shows the widgets of the layout and only those, in reading order, on the grid', async () => {
    vi.mocked(fetchDashboardLayout).mockResolvedValue(layoutOf([...ASSESSOR].reverse()))
    const wrapper = await mountPage()
    expect(shown()).toEqual(['overdueAssessments', 'upcomingDueDates', 'conformance'])
    expect(wrapper.find('[data-test="dashboard-weakest"]').exists()).toBe(false)
    const chart = wrapper.get('[data-widget="conformance"]').element as HTMLElement
    expect(chart.style.gridColumn).toBe('7 / span 6')
    expect(chart.style.gridRow).toBe('3 / span 7')
    expect(wrapper.find('[data-test="dashboard-edit-actions"]').exists()).toBe(false)
  })

  it('shows every widget and says so when the layout cannot be read', async () => {
    vi.mocked(fetchDashboardLayout).mockRejectedValue(new ApiError(503, 'service_unavailable', 'The database is not answering.', 'req'))
    const wrapper = await mountPage()
    expect(shown()).toHaveLength(WIDGET_IDS.length)
    expect(wrapper.text()).toContain('Your layout could not be loaded')
  })

  it('arranges the layout: remove, add, move and resize from the keyboard, then save', async () => {
    vi.mocked(fetchDashboardLayout).mockResolvedValue(layoutOf(ASSESSOR))
    vi.mocked(saveDashboardLayout).mockImplementation(async (widgets) => layoutOf(widgets, false))
    const wrapper = await mountPage()
    click('[data-test="dashboard-customize"]')
    await settle()
    expect(wrapper.text()).toContain('The default layout of your role')
    // The widgets' own links are out of reach while arranging.
    expect(wrapper.get('[data-widget="overdueAssessments"] .dash-tile__body').attributes('inert')).toBeDefined()

    click('[data-remove="upcomingDueDates"]')
    await settle()
    expect(shown()).toEqual(['overdueAssessments', 'conformance'])
    expect(wrapper.get('[data-test="dashboard-announcement"]').text()).toBe('Next due dates removed')

    click('[data-test="dashboard-add"]')
    await settle()
    expect(document.querySelector('[data-test="add-upcomingDueDates"]')).not.toBeNull()
    expect(document.querySelector('[data-test="add-conformance"]')).toBeNull()
    click('[data-test="add-health"]')
    await settle()
    expect(shown()).toContain('health')

    // The arrow keys on the move handle move the tile, with Shift they resize it.
    const handle = wrapper.get('[data-move="overdueAssessments"]')
    await handle.trigger('keydown', { key: 'ArrowRight' })
    await settle()
    await wrapper.get('[data-move="overdueAssessments"]').trigger('keydown', { key: 'ArrowRight', shiftKey: true })
    await settle()
    expect(wrapper.get('[data-test="dashboard-announcement"]').text()).toBe('Overdue assessments: column 2, row 1, 4 columns wide, 2 rows high')
    expect(document.activeElement?.getAttribute('data-move')).toBe('overdueAssessments')

    // The tile's menu does the same.
    document.querySelector<HTMLElement>('[data-menu="conformance"]')!.focus()
    click('[data-menu="conformance"]')
    await settle()
    expect(menuItem('conformance', 'Wider').getAttribute('aria-disabled')).toBe('true') // it reaches the last column
    menuItem('conformance', 'Narrower').click()
    await settle()

    click('[data-test="dashboard-save"]')
    await settle()
    const sent = vi.mocked(saveDashboardLayout).mock.calls[0]?.[0] ?? []
    expect(sent.find((t) => t.widget === 'overdueAssessments')).toEqual({ widget: 'overdueAssessments', x: 1, y: 0, w: 4, h: 2 })
    expect(sent.find((t) => t.widget === 'conformance')?.w).toBe(5)
    expect(sent.map((t) => t.widget).sort()).toEqual(['conformance', 'health', 'overdueAssessments'])
    expect(wrapper.find('[data-test="dashboard-edit-actions"]').exists()).toBe(false)
    expect(shown()).toEqual(sent.map((t) => t.widget))
    expect(wrapper.find('[data-move="overdueAssessments"]').exists()).toBe(false)
  })

  it('drops the changes on Cancel, and shows why a save failed', async () => {
    vi.mocked(fetchDashboardLayout).mockResolvedValue(layoutOf(ASSESSOR))
    vi.mocked(saveDashboardLayout).mockRejectedValue(
      new ApiError(400, 'validation_failed', 'The request is invalid.', 'req', [{ field: 'widgets[0]', code: 'overlap', message: 'overlaps' }]),
    )
    const wrapper = await mountPage()
    click('[data-test="dashboard-customize"]')
    await settle()
    click('[data-remove="conformance"]')
    await settle()
    click('[data-test="dashboard-save"]')
    await settle()
    expect(wrapper.text()).toContain('The layout could not be saved')
    expect(wrapper.find('[data-test="dashboard-edit-actions"]').exists()).toBe(true)
    click('[data-test="dashboard-cancel"]')
    await settle()
    expect(shown()).toEqual(['overdueAssessments', 'upcomingDueDates', 'conformance'])
  })

  it('goes back to the default of the role on Reset, after asking', async () => {
    vi.mocked(fetchDashboardLayout).mockResolvedValue(layoutOf(EVERYTHING, false))
    vi.mocked(resetDashboardLayout).mockResolvedValue(layoutOf(ASSESSOR))
    const confirm = vi.spyOn(ElMessageBox, 'confirm').mockRejectedValueOnce('cancel').mockResolvedValueOnce('confirm' as never)
    const wrapper = await mountPage()
    click('[data-test="dashboard-customize"]')
    await settle()
    click('[data-test="dashboard-reset"]')
    await settle()
    expect(resetDashboardLayout).not.toHaveBeenCalled()
    click('[data-test="dashboard-reset"]')
    await settle()
    expect(confirm).toHaveBeenCalledTimes(2)
    expect(resetDashboardLayout).toHaveBeenCalledOnce()
    expect(shown()).toEqual(['overdueAssessments', 'upcomingDueDates', 'conformance'])
    expect(wrapper.find('[data-test="dashboard-edit-actions"]').exists()).toBe(false)
  })

  it('says so when the dashboard shows nothing', async () => {
    vi.mocked(fetchDashboardLayout).mockResolvedValue(layoutOf([], false))
    const wrapper = await mountPage()
    expect(wrapper.get('[data-test="dashboard-empty"]').text()).toContain('Choose Customize to add some')
  })
})
