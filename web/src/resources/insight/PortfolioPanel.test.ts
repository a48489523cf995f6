import { afterEach, describe, expect, it, vi } from 'vitest'
import { nameStartsWithLabel, settle } from '../../app/testing'
import { fetchPortfolio, type Portfolio } from './api'
import { PORTFOLIO } from './fixtures'
import PortfolioPanel from './PortfolioPanel.vue'
import { ChartStub, mountWithRouter } from './testing'

vi.mock('./api', async (importOriginal) => ({ ...(await importOriginal<typeof import('./api')>()), fetchPortfolio: vi.fn() }))
vi.mock('vue-echarts', () => ({ default: ChartStub }))

const PROPS = { filters: { project: 'pr_1' }, title: 'Portfolio of the project' }

describe('PortfolioPanel', () => {
  afterEach(() => {
    document.body.innerHTML = ''
  })

  it('draws the heat map of the page and opens the assessment of a cell', async () => {
    vi.mocked(fetchPortfolio).mockResolvedValue(PORTFOLIO)
    const { wrapper, router } = await mountWithRouter(PortfolioPanel, PROPS)
    await settle()
    expect(fetchPortfolio).toHaveBeenCalledWith({ project: 'pr_1' }, undefined)
    await vi.waitFor(() => expect(wrapper.findComponent(ChartStub).exists()).toBe(true), { timeout: 10_000 })
    const chart = wrapper.findComponent(ChartStub)
    const option = chart.props('option') as { yAxis: { data: string[] }; xAxis: { data: string[] } }
    expect(option.yAxis.data).toEqual(['Other', 'Shop'])
    expect(option.xAxis.data).toEqual(['ASVS 5.0.0', 'SSDF 1.1'])
    expect(wrapper.get('[data-test="portfolio-heatmap"] ul').text().replace(/\s+/g, ' ')).toBe('80 % and more 50 to 80 % below 50 % no score')
    chart.vm.$emit('click', { data: { cell: { assessmentId: 'as_2' } } })
    await settle()
    expect(router.currentRoute.value.fullPath).toBe('/assessments/as_2')
    expect(wrapper.get('[data-test="portfolio-range"]').text()).toBe('Entities 1–2 of 2')
    expect(wrapper.find('[data-test="portfolio-next"]').exists()).toBe(false)
  })

  it('offers the cells as a table of links, coloured by band, "—" where there is no result', async () => {
    vi.mocked(fetchPortfolio).mockResolvedValue(PORTFOLIO)
    const { wrapper } = await mountWithRouter(PortfolioPanel, PROPS)
    await settle()
    await wrapper.get('[data-test="portfolio-table-toggle"]').trigger('click')
    await settle()
    const cells = wrapper.findAll('[data-test="portfolio-table"] .el-table__body-wrapper [data-test="portfolio-cell"]')
    expect(cells.map((c) => [c.text(), c.attributes('href'), c.classes().find((k) => k.includes('--'))])).toEqual([
      ['40 %', '/assessments/as_o', 'portfolio-panel__cell--low'],
      ['87.5 %', '/assessments/as_2', 'portfolio-panel__cell--high'],
      ['—', '/assessments/as_1', 'portfolio-panel__cell--none'],
    ])
    expect(cells[1]!.attributes('title')).toBe('Shop: Second review, 87.5 % on Mar 5, 2026 (2 finished)')
    const table = wrapper.get('[data-test="portfolio-table"]')
    expect(table.text()).toContain('2 finished')
    expect(table.find('a[href="/entities/en_shop"]').text()).toBe('Shop')
  })

  it.each([
    ['en', 'Table instead of the chart', 'Heat map of the portfolio'],
    ['de', 'Tabelle statt des Diagramms', 'Heatmap des Portfolios'],
  ] as const)('names its switch and lets the keyboard reach the heat map to scroll it (%s)', async (locale, switchName, mapName) => {
    vi.mocked(fetchPortfolio).mockResolvedValue(PORTFOLIO)
    const { wrapper } = await mountWithRouter(PortfolioPanel, PROPS, locale)
    await settle()
    // The words beside the switch are no label of its input: it had no name at all.
    const toggle = wrapper.get('[data-test="portfolio-table-toggle"]')
    const input = toggle.get('input[role="switch"]')
    expect(input.attributes('aria-label')).toBe(switchName)
    expect(nameStartsWithLabel(toggle.element.textContent ?? '', input.attributes('aria-label'))).toBe(true)
    // The canvas holds nothing focusable, so the scrolling box takes the focus itself.
    await vi.waitFor(() => expect(wrapper.find('[data-test="portfolio-heatmap"]').exists()).toBe(true), { timeout: 10_000 })
    const scroll = wrapper.get('[data-test="portfolio-heatmap"] .portfolio-heatmap__scroll')
    expect(scroll.attributes('tabindex')).toBe('0')
    expect(scroll.attributes('role')).toBe('region')
    expect(scroll.attributes('aria-label')).toBe(mapName)
    wrapper.unmount()
  })

  it('pages with the server cursors, back and forth, and starts again when the filters change', async () => {
    const page = (name: string, over: Partial<Portfolio>): Portfolio => ({
      ...PORTFOLIO,
      total: 51,
      items: [{ entityId: `en_${name}`, entityName: name, entityType: 'product', cells: [] }],
      ...over,
    })
    vi.mocked(fetchPortfolio).mockImplementation(async (_filters, cursor) =>
      cursor === 'c2' ? page('Zed', { hasMore: false }) : page('Alpha', { hasMore: true, nextCursor: 'c2' }),
    )
    const { wrapper } = await mountWithRouter(PortfolioPanel, PROPS)
    await settle()
    await wrapper.get('[data-test="portfolio-next"]').trigger('click')
    await settle()
    expect(fetchPortfolio).toHaveBeenLastCalledWith({ project: 'pr_1' }, 'c2')
    expect(wrapper.get('[data-test="portfolio-range"]').text()).toBe('Entities 51–51 of 51')
    expect(wrapper.get('[data-test="portfolio-next"]').attributes('disabled')).toBeDefined()
    await wrapper.get('[data-test="portfolio-previous"]').trigger('click')
    await settle()
    expect(fetchPortfolio).toHaveBeenLastCalledWith({ project: 'pr_1' }, undefined)
    expect(wrapper.get('[data-test="portfolio-range"]').text()).toBe('Entities 1–1 of 51')
    await wrapper.get('[data-test="portfolio-next"]').trigger('click')
    await settle()
    await wrapper.setProps({ filters: { project: 'pr_1', q: 'sh' } })
    await settle()
    expect(fetchPortfolio).toHaveBeenLastCalledWith({ project: 'pr_1', q: 'sh' }, undefined)
    expect(wrapper.get('[data-test="portfolio-range"]').text()).toBe('Entities 1–1 of 51')
  })

  it('says when nothing matches, in German too', async () => {
    vi.mocked(fetchPortfolio).mockResolvedValue({ ...PORTFOLIO, items: [], standards: [], total: 0 })
    const { wrapper } = await mountWithRouter(PortfolioPanel, PROPS, 'de')
    await settle()
    expect(wrapper.get('[data-test="portfolio-empty"]').text()).toBe('Keine abgeschlossene Bewertung, die Sie öffnen dürfen, passt dazu.')
  })
})
