import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { createAppI18n } from '../../../app/i18n'
import { usePreferencesStore } from '../../../app/preferences'
import { listTimeline } from '../api'
import { ada, anAssessment } from '../fixtures'
import type { TimelineEntry } from '../types'
import TimelineTab from './TimelineTab.vue'

vi.mock('../api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api')>()),
  listTimeline: vi.fn(),
}))

const entries: TimelineEntry[] = [
  {
    id: 3, occurredAt: '2026-05-02T10:00:00Z', actor: ada, action: 'evidence.linked', targetType: 'evidence', targetId: 'ev_01sbom',
    targetName: 'SBOM', targetLink: '/evidence/ev_01sbom', details: { name: 'SBOM', requirement: 'V1.2.3', requirementId: 'ar_01v123' },
  },
  {
    id: 2, occurredAt: '2026-05-02T09:00:00Z', actor: ada, action: 'assessment.result_recorded', targetType: 'assessment_requirement',
    targetId: 'ar_01v123', targetName: 'V1.2.3', targetLink: '/assessments/as_1?tab=requirements&requirement=ar_01v123', details: { result: 'yes' },
  },
  {
    id: 1, occurredAt: '2026-05-02T08:00:00Z', actor: ada, action: 'evidence.unlinked', targetType: 'evidence', targetId: 'ev_01gone',
    targetName: 'Scratch', targetLink: '', details: { name: 'Scratch', requirement: 'V2.1', requirementId: 'ar_01v21' },
  },
]

async function mountTab(locale: 'en' | 'de') {
  const pinia = createPinia()
  setActivePinia(pinia)
  usePreferencesStore().setLocale(locale)
  const router = createRouter({ history: createMemoryHistory(), routes: [{ path: '/:any(.*)*', component: { template: '<p />' } }] })
  await router.push('/assessments/as_1?tab=timeline')
  const wrapper = mount(TimelineTab, {
    attachTo: document.body,
    props: { assessment: anAssessment() },
    global: { plugins: [pinia, router, createAppI18n(locale)] },
  })
  await flushPromises()
  return wrapper
}

describe('TimelineTab', () => {
  beforeEach(() => {
    document.body.innerHTML = ''
    vi.mocked(listTimeline).mockReset().mockResolvedValue({ items: entries, hasMore: false })
  })

  it('names what changed instead of its id, linked to its page, with the id on hover', async () => {
    const wrapper = await mountTab('en')
    const lines = wrapper.findAll('[data-test="timeline-entry"] .el-timeline-item__content').map((line) => line.text())
    expect(lines).toEqual([
      'Ada Lovelace linked evidence “SBOM” to V1.2.3',
      'Ada Lovelace recorded Yes for V1.2.3',
      'Ada Lovelace unlinked evidence “Scratch” from V2.1',
    ])
    expect(wrapper.text()).not.toContain('ev_01')
    const records = wrapper.findAll('[data-test="timeline-record"]')
    expect(records.map((r) => [r.element.tagName, r.attributes('href') ?? null, r.attributes('title')])).toEqual([
      ['A', '/evidence/ev_01sbom', 'ev_01sbom'],
      ['A', '/assessments/as_1?tab=requirements&requirement=ar_01v123', 'ar_01v123'],
      ['A', '/assessments/as_1?tab=requirements&requirement=ar_01v123', 'ar_01v123'],
      ['SPAN', null, 'ev_01gone'],
      ['A', '/assessments/as_1?tab=requirements&requirement=ar_01v21', 'ar_01v21'],
    ])
    wrapper.unmount()
  })

  it('speaks German', async () => {
    const wrapper = await mountTab('de')
    expect(wrapper.get('[data-test="timeline-entry"] .el-timeline-item__content').text()).toBe('Ada Lovelace hat den Nachweis „SBOM“ mit V1.2.3 verknüpft')
    wrapper.unmount()
  })
})
