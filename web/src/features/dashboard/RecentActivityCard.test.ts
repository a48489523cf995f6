import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, describe, expect, it } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { createAppI18n } from '../../app/i18n'
import { usePreferencesStore } from '../../app/preferences'
import { settle } from '../../app/testing'
import type { Dashboard, DashboardActivity } from './api'
import DashboardWidget from './DashboardWidget.vue'

const ada = { id: 'us_ada', username: 'ada', displayName: 'Ada Lovelace' }

// ACTIVITY is the newest first, across two assessments; the last one is the service's.
const ACTIVITY: DashboardActivity[] = [
  {
    assessmentId: 'as_1',
    assessmentTitle: 'Payments review',
    entry: {
      id: 30, occurredAt: '2026-11-28T09:30:00Z', actor: ada, action: 'assessment.state_changed', targetType: 'assessment',
      targetId: 'as_1', targetName: 'Payments review', targetLink: '/assessments/as_1', details: { from: 'in_progress', to: 'on_hold' },
    },
  },
  {
    assessmentId: 'as_2',
    assessmentTitle: 'Shop audit',
    entry: {
      id: 29, occurredAt: '2026-11-27T16:00:00Z', actor: ada, action: 'evidence.linked', targetType: 'evidence', targetId: 'ev_sbom',
      targetName: 'SBOM', targetLink: '/evidence/ev_sbom', details: { requirement: 'V1.2.3', requirementId: 'ar_7' },
    },
  },
  {
    assessmentId: 'as_2',
    assessmentTitle: 'Shop audit',
    entry: {
      id: 28, occurredAt: '2026-11-27T03:00:00Z', actor: { id: 'system', username: '', displayName: '' }, action: 'evidence.expired',
      targetType: 'evidence', targetId: 'ev_old', targetName: 'Old pentest', targetLink: '/evidence/ev_old', details: {},
    },
  },
]

const dashboardWith = (recentActivity: DashboardActivity[] | null) =>
  ({ generatedAt: '2026-11-28T10:00:00Z', expiringDays: 30, recentActivity }) as unknown as Dashboard

async function mountWidget(dashboard: Dashboard | null, { locale = 'en' as 'en' | 'de', loading = false } = {}) {
  const pinia = createPinia()
  setActivePinia(pinia)
  usePreferencesStore().setLocale(locale)
  const router = createRouter({ history: createMemoryHistory(), routes: [
    { path: '/', component: { template: '<div />' } },
    { path: '/assessments/:id', name: 'assessment', component: { template: '<div />' } },
    { path: '/evidence/:id', name: 'evidence-detail', component: { template: '<div />' } },
  ] })
  const wrapper = mount(DashboardWidget, {
    props: { widget: 'recentActivity', dashboard, loading },
    attachTo: document.body,
    global: { plugins: [pinia, router, createAppI18n(locale)] },
  })
  await settle()
  return wrapper
}

/** sentences is each item's sentence, as a reader reads it. */
const sentences = (wrapper: Awaited<ReturnType<typeof mountWidget>>) =>
  wrapper.findAll('[data-test="activity-item"]').map((item) => item.element.firstElementChild?.textContent?.trim())

describe('the recent activity widget', () => {
  afterEach(() => {
    document.body.innerHTML = ''
  })

  it('says who did what, in words, newest first', async () => {
    const wrapper = await mountWidget(dashboardWith(ACTIVITY))
    expect(wrapper.get('h2').text()).toBe('Recent activity')
    expect(sentences(wrapper)).toEqual([
      'Ada Lovelace moved the assessment from In progress to On hold',
      'Ada Lovelace linked evidence “SBOM” to V1.2.3',
      'Evidence “Old pentest” expired',
    ])
    expect(wrapper.text()).not.toContain('evidence.linked')
    expect(wrapper.text()).not.toContain('state_changed')
  })

  it('leads to each assessment’s timeline and to the record changed, and says when', async () => {
    const wrapper = await mountWidget(dashboardWith(ACTIVITY))
    const assessments = wrapper.findAll('[data-test="activity-assessment"]')
    expect(assessments.map((a) => [a.text(), a.attributes('href')])).toEqual([
      ['Payments review', '/assessments/as_1?tab=timeline'],
      ['Shop audit', '/assessments/as_2?tab=timeline'],
      ['Shop audit', '/assessments/as_2?tab=timeline'],
    ])
    const records = wrapper.findAll('[data-test="activity-item"]')[1]!.findAll('[data-test="timeline-record"]')
    expect(records.map((r) => r.attributes('href'))).toEqual(['/evidence/ev_sbom', '/assessments/as_2?tab=requirements&requirement=ar_7'])
    const time = wrapper.get('[data-test="activity-item"] time')
    expect(time.attributes('datetime')).toBe('2026-11-28T09:30:00Z')
    expect(time.text()).toMatch(/Nov 28, 2026/)
  })

  it('speaks German', async () => {
    const wrapper = await mountWidget(dashboardWith(ACTIVITY), { locale: 'de' })
    expect(wrapper.get('h2').text()).toBe('Letzte Aktivitäten')
    expect(sentences(wrapper)).toEqual([
      'Ada Lovelace hat die Bewertung von In Arbeit auf Pausiert gesetzt',
      'Ada Lovelace hat den Nachweis „SBOM“ mit V1.2.3 verknüpft',
      'Der Nachweis „Old pentest“ ist abgelaufen',
    ])
  })

  it('says so when nothing happened, and waits while the figures load', async () => {
    for (const none of [[], null]) {
      const wrapper = await mountWidget(dashboardWith(none))
      expect(wrapper.get('[data-test="dashboard-activity"]').text()).toContain('No recent activity')
      expect(wrapper.find('[data-test="activity-item"]').exists()).toBe(false)
      wrapper.unmount()
    }
    const loading = await mountWidget(null, { loading: true })
    expect(loading.find('.el-skeleton').exists()).toBe(true)
    expect(loading.text()).not.toContain('No recent activity')
  })
})
