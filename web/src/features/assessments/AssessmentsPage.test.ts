import { flushPromises, mount } from '@vue/test-utils'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { createAppI18n } from '../../app/i18n'
import { signedInAdmin, signedInPinia } from '../../app/session/fixtures'
import { listAssessments } from './api'
import AssessmentsPage from './AssessmentsPage.vue'
import { anAssessment } from './fixtures'

vi.mock('./api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./api')>()),
  listAssessments: vi.fn(),
}))
vi.mock('../../resources/catalogue/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../resources/catalogue/api')>()),
  fetchTagOptions: vi.fn(async () => []),
  fetchPublishedStandards: vi.fn(async () => []),
  fetchEntityChoice: vi.fn(async (id: string) => ({ value: id, label: 'Web Shop' })),
  entityChoices: vi.fn(async () => []),
}))

async function mountAt(path: string, permissions = ['assessments.view']) {
  const pinia = signedInPinia(signedInAdmin, permissions)
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/assessments', name: 'assessments', component: AssessmentsPage },
      { path: '/assessments/:id', name: 'assessment', component: { template: '<p>one</p>' } },
    ],
  })
  await router.push(path)
  const wrapper = mount({ template: '<RouterView />' }, { attachTo: document.body, global: { plugins: [pinia, router, createAppI18n('en')] } })
  await flushPromises()
  return { wrapper, router }
}

describe('AssessmentsPage', () => {
  beforeEach(() => {
    vi.mocked(listAssessments).mockReset().mockResolvedValue({
      items: [anAssessment({ overdue: true }), anAssessment({ id: 'as_2', title: 'Done', state: 'complete', conformanceScore: 87.5 })],
      hasMore: false,
    })
    document.body.innerHTML = ''
  })

  it('asks the server with the filters from the URL and lists the assessments', async () => {
    const { wrapper } = await mountAt('/assessments?state=in_progress&mine=true&due=overdue&sort=title')
    expect(vi.mocked(listAssessments).mock.calls[0]![0]).toMatchObject({ state: 'in_progress', mine: true, due: 'overdue', sort: 'title' })
    const rows = wrapper.findAll('[data-test="assessment-row"]')
    expect(rows.map((row) => row.get('[data-test="assessment-link"]').text())).toEqual(['Web shop review', 'Done'])
    expect(rows[0]!.find('[data-test="assessment-overdue"]').exists()).toBe(true)
    expect(rows[0]!.text()).toContain('1 of 3 answered')
    expect(rows[1]!.get('[data-test="assessment-score"]').text()).toBe('87.5 %')
    expect(wrapper.find('[data-test="assessment-create"]').exists()).toBe(false)
  })

  it('writes a changed filter into the URL and asks again', async () => {
    const { wrapper, router } = await mountAt('/assessments')
    await wrapper.get('[data-test="filter-mine"] input').setValue(true)
    await flushPromises()
    expect(router.currentRoute.value.query).toEqual({ mine: 'true' })
    expect(vi.mocked(listAssessments).mock.calls.at(-1)![0]).toMatchObject({ mine: true })
    await wrapper.get('[data-test="filter-clear"]').trigger('click')
    await flushPromises()
    expect(router.currentRoute.value.query).toEqual({})
  })

  it("opens the create dialog with the entity of the page it came from, and leaves the list narrowed to it (issue 26 item 3)", async () => {
    const { router } = await mountAt('/assessments?entity=en_1&new=1', ['assessments.view', 'assessments.create', 'entities.view'])
    await flushPromises()
    expect(router.currentRoute.value.query).toEqual({ entity: 'en_1' })
    expect(vi.mocked(listAssessments).mock.calls.at(-1)![0]).toMatchObject({ entity: 'en_1' })
    const dialog = document.querySelector('[data-test="assessment-dialog"]')
    expect(dialog?.textContent).toContain('Web Shop')
    expect(dialog?.textContent).toContain('Evidence must be linked to every requirement answered yes or partial.')
  })
})
