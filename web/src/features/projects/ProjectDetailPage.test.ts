import { flushPromises, mount } from '@vue/test-utils'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { ApiError } from '../../api/errors'
import { createAppI18n } from '../../app/i18n'
import { signedInAdmin, signedInPinia } from '../../app/session/fixtures'
import { changeProjectState, fetchProject, fetchProjectFigures, type Project } from './api'
import ProjectDetailPage from './ProjectDetailPage.vue'

vi.mock('./api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./api')>()),
  fetchProject: vi.fn(),
  fetchProjectFigures: vi.fn(),
  changeProjectState: vi.fn(),
}))
vi.mock('../../resources/catalogue/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../resources/catalogue/api')>()),
  fetchTagOptions: vi.fn(async () => []),
}))

const project: Project = {
  id: 'pr_1', name: 'Web shop assessment', description: 'Yearly', state: 'new', dueDate: '2026-02-01', overdue: true,
  standards: [
    { id: 'st_1', name: 'ASVS', standardVersion: '5.0.0', state: 'published' },
    { id: 'st_2', name: 'SAMM', standardVersion: '2.1.0', state: 'retired' },
  ],
  entities: [{ id: 'en_1', name: 'Web Shop', type: 'product' }],
  tags: [], version: 5, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z',
}

async function mountAt(path: string, permissions: string[]) {
  const pinia = signedInPinia(signedInAdmin, permissions)
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/projects', name: 'projects', component: { template: '<p>list</p>' } },
      { path: '/projects/:id', name: 'project', component: ProjectDetailPage },
      { path: '/entities/:id', name: 'entity', component: { template: '<p>entity</p>' } },
      { path: '/standards/:id', component: { template: '<p>standard</p>' } },
    ],
  })
  await router.push(path)
  const wrapper = mount({ template: '<RouterView />' }, { attachTo: document.body, global: { plugins: [pinia, router, createAppI18n('en')] } })
  await flushPromises()
  return wrapper
}

// Dialogs render their content a few ticks after opening; let them settle.
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await flushPromises()
    await new Promise((resolve) => setTimeout(resolve, 0))
  }
}

describe('ProjectDetailPage', () => {
  beforeEach(() => {
    vi.mocked(fetchProject).mockReset().mockResolvedValue(project)
    vi.mocked(fetchProjectFigures).mockReset().mockResolvedValue({
      assessments: { total: 0, complete: 0, inProgress: 0, percentComplete: null, requirements: 0, answered: 0, byState: {} },
      overdue: { project: true, assessments: 0 },
      evidenceCoverage: { requirements: 0, withEvidence: 0, percent: null },
      conformance: { averageScore: null, assessed: 0 },
      warnings: [{ code: 'overdue', message: 'The project is past its due date.' }],
    })
    vi.mocked(changeProjectState).mockReset()
    document.body.innerHTML = ''
  })

  it('lists its standards (linking to them, a retired one marked) and its entities, with the figures', async () => {
    const wrapper = await mountAt('/projects/pr_1', ['projects.view'])
    const standards = wrapper.get('[data-test="project-standards"]')
    expect(standards.findAll('a').map((a) => [a.text(), a.attributes('href')])).toEqual([
      ['ASVS 5.0.0', '/standards/st_1'],
      ['SAMM 2.1.0', '/standards/st_2'],
    ])
    expect(standards.text()).toContain('Retired')
    expect(wrapper.get('[data-test="project-entities"] a').attributes('href')).toBe('/entities/en_1')
    expect(wrapper.text()).toContain('Overdue')
    expect(wrapper.text()).toContain('The project is past its due date.')
    expect(wrapper.find('[data-test="project-edit"]').exists()).toBe(false)
    wrapper.unmount()
  })

  it('shows a not-found state for an unknown id', async () => {
    vi.mocked(fetchProject).mockRejectedValue(new ApiError(404, 'not_found', 'No such project.', 'r1'))
    const wrapper = await mountAt('/projects/pr_gone', ['projects.view'])
    expect(wrapper.find('[data-test="project-not-found"]').exists()).toBe(true)
    wrapper.unmount()
  })

  it('offers the allowed states and, refused, the states the server allows now', async () => {
    vi.mocked(changeProjectState).mockRejectedValue(
      new ApiError(409, 'invalid_state_transition', 'This project is on_hold and cannot become on_hold.', 'r2', [
        { field: 'state', code: 'allowed', message: 'in_progress' },
        { field: 'state', code: 'allowed', message: 'retired' },
      ]),
    )
    const wrapper = await mountAt('/projects/pr_1', ['projects.view', 'projects.edit'])
    await wrapper.get('[data-test="project-change-state"]').trigger('click')
    await settle()
    const options = () => [...document.querySelectorAll('[data-test="state-option"]')].map((option) => option.textContent?.trim())
    expect(options()).toEqual(['In progress', 'On hold', 'Retired'])
    const onHold = [...document.querySelectorAll<HTMLInputElement>('[data-test="state-option"] input')][1] as HTMLInputElement
    onHold.click()
    await settle()
    const submit = [...document.querySelectorAll('.el-dialog button')].find((button) => button.textContent?.trim() === 'Change state')
    ;(submit as HTMLButtonElement).click()
    await settle()
    expect(changeProjectState).toHaveBeenCalledWith('pr_1', 'on_hold', 5)
    expect(document.querySelector('[data-test="state-allowed"]')?.textContent).toContain('Allowed from its current state: In progress, Retired.')
    expect(options()).toEqual(['In progress', 'Retired'])
    wrapper.unmount()
  })
})
