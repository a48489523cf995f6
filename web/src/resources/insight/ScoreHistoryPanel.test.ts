import { afterEach, describe, expect, it, vi } from 'vitest'
import { settle } from '../../app/testing'
import { fetchScoreHistory } from './api'
import { HISTORY } from './fixtures'
import ScoreHistoryPanel from './ScoreHistoryPanel.vue'
import { ChartStub, mountWithRouter } from './testing'

vi.mock('./api', async (importOriginal) => ({ ...(await importOriginal<typeof import('./api')>()), fetchScoreHistory: vi.fn() }))
vi.mock('vue-echarts', () => ({ default: ChartStub }))

describe('ScoreHistoryPanel', () => {
  afterEach(() => {
    document.body.innerHTML = ''
  })

  it('draws a line per standard and opens the assessment of a point', async () => {
    vi.mocked(fetchScoreHistory).mockResolvedValue(HISTORY)
    const { wrapper, router } = await mountWithRouter(ScoreHistoryPanel, { entityId: 'en_shop' })
    await settle()
    expect(fetchScoreHistory).toHaveBeenCalledWith('en_shop')
    // The chart is loaded on first use.
    await vi.waitFor(() => expect(wrapper.findComponent(ChartStub).exists()).toBe(true), { timeout: 10_000 })
    const chart = wrapper.findComponent(ChartStub)
    expect(chart.attributes('data-series')).toBe('2')
    chart.vm.$emit('click', { data: { assessmentId: 'as_2' } })
    await settle()
    expect(router.currentRoute.value.fullPath).toBe('/assessments/as_2')
  })

  it('offers the same points as a table, newest first, each linking to its assessment', async () => {
    vi.mocked(fetchScoreHistory).mockResolvedValue(HISTORY)
    const { wrapper } = await mountWithRouter(ScoreHistoryPanel, { entityId: 'en_shop' })
    await settle()
    // The words beside the switch are no label of its input, so it carries a name of its own.
    expect(wrapper.get('[data-test="score-history-table-toggle"] input').attributes('aria-label')).toBe('Table instead of the chart')
    await wrapper.get('[data-test="score-history-table-toggle"]').trigger('click')
    await settle()
    const table = wrapper.get('[data-test="score-history-table"]')
    const links = table.findAll('a')
    expect(links.map((a) => [a.text(), a.attributes('href')])).toEqual([
      ['Second review', '/assessments/as_2'],
      ['First review', '/assessments/as_1'],
      ['First review', '/assessments/as_1'],
    ])
    expect(table.text()).toContain('ASVS 5.0.0 · Level 1')
    expect(table.text()).toContain('87.5 %')
    expect(table.text()).toContain('—')
    expect(wrapper.findComponent(ChartStub).exists()).toBe(false)
  })

  it('says when there is nothing to show, and when the server failed', async () => {
    vi.mocked(fetchScoreHistory).mockResolvedValue({ entityId: 'en_shop', points: [], truncated: false })
    const { wrapper } = await mountWithRouter(ScoreHistoryPanel, { entityId: 'en_shop' }, 'de')
    await settle()
    expect(wrapper.get('[data-test="score-history-empty"]').text()).toContain('Noch keine abgeschlossene Bewertung')
    expect(wrapper.find('[data-test="score-history-table-toggle"]').exists()).toBe(false)
    wrapper.unmount()

    vi.mocked(fetchScoreHistory).mockRejectedValue(new Error('offline'))
    const failed = await mountWithRouter(ScoreHistoryPanel, { entityId: 'en_shop' })
    await settle()
    expect(failed.wrapper.text()).toContain('The score history could not be loaded')
  })
})
