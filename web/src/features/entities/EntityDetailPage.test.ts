import { flushPromises, mount } from '@vue/test-utils'
import { ElMessageBox } from 'element-plus'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { ApiError } from '../../api/errors'
import { createAppI18n } from '../../app/i18n'
import { signedInAdmin, signedInPinia } from '../../app/session/fixtures'
import { deleteEntity, fetchEntity, listPolicies, updateEntity, type Entity } from './api'
import EntityDetailPage from './EntityDetailPage.vue'

vi.mock('./api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./api')>()),
  fetchEntity: vi.fn(),
  updateEntity: vi.fn(),
  deleteEntity: vi.fn(),
  listPolicies: vi.fn(async () => []),
  listRelationships: vi.fn(async () => ({ items: [], hasMore: false })),
}))
vi.mock('../../resources/catalogue/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../resources/catalogue/api')>()),
  fetchTagOptions: vi.fn(async () => []),
}))

const team: Entity = {
  id: 'en_team', name: 'Platform Team', description: 'Runs the platform', type: 'team', state: 'active', bomRef: 'en_team',
  tags: [], version: 3, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z',
}

const EDITOR = ['entities.view', 'entities.edit', 'entities.delete']

async function mountAt(path: string, permissions: string[] = EDITOR) {
  const pinia = signedInPinia(signedInAdmin, permissions)
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/entities', name: 'entities', component: { template: '<p>list</p>' } },
      { path: '/entities/:id', name: 'entity', component: EntityDetailPage },
      { path: '/standards/:id', component: { template: '<p>standard</p>' } },
    ],
  })
  await router.push(path)
  const wrapper = mount({ template: '<RouterView />' }, { attachTo: document.body, global: { plugins: [pinia, router, createAppI18n('en')] } })
  await flushPromises()
  return { wrapper, router }
}

describe('EntityDetailPage', () => {
  beforeEach(() => {
    vi.mocked(fetchEntity).mockReset().mockResolvedValue(team)
    vi.mocked(updateEntity).mockReset()
    vi.mocked(deleteEntity).mockReset()
    vi.mocked(listPolicies).mockReset().mockResolvedValue([])
    document.body.innerHTML = ''
  })

  it('shows a not-found state for an id that does not exist', async () => {
    vi.mocked(fetchEntity).mockRejectedValue(new ApiError(404, 'not_found', 'No such entity.', 'r1'))
    const { wrapper } = await mountAt('/entities/en_gone')
    expect(wrapper.find('[data-test="entity-not-found"]').exists()).toBe(true)
    expect(wrapper.text()).toContain('Entity not found')
    wrapper.unmount()
  })

  it('hides editing, state changes and deletion from readers', async () => {
    const { wrapper } = await mountAt('/entities/en_team', ['entities.view'])
    expect(wrapper.text()).toContain('Platform Team')
    expect(wrapper.find('[data-test="entity-edit"]').exists()).toBe(false)
    expect(wrapper.find('[data-test="entity-more"]').exists()).toBe(false)
    wrapper.unmount()
  })

  it('explains clearly that an entity a project names cannot be deleted', async () => {
    vi.spyOn(ElMessageBox, 'confirm').mockResolvedValue('confirm' as never)
    vi.mocked(deleteEntity).mockRejectedValue(
      new ApiError(409, 'in_use', 'The entity is covered by 1 project.', 'r2'),
    )
    const { wrapper, router } = await mountAt('/entities/en_team')
    await wrapper.get('[data-test="entity-more"]').trigger('click')
    await flushPromises()
    ;(document.querySelector('[data-test="entity-delete"]') as HTMLElement).click()
    await flushPromises()
    expect(deleteEntity).toHaveBeenCalledWith('en_team')
    const alert = wrapper.get('[data-test="entity-action-failure"]')
    expect(alert.text()).toContain('still assessed or used by a project')
    expect(alert.text()).toContain('The entity is covered by 1 project.')
    expect(router.currentRoute.value.path).toBe('/entities/en_team')
    wrapper.unmount()
  })

  it('lists inherited policies with a link to the entity they come from, and no edit buttons for them', async () => {
    vi.mocked(listPolicies).mockResolvedValue([
      {
        id: 'cp_1', entityId: 'en_org', standardId: 'st_1', standardName: 'ASVS', standardVersion: '5.0.0', description: '',
        version: 1, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z',
        inheritedFrom: { id: 'en_org', name: 'Acme Corp' },
      },
      {
        id: 'cp_2', entityId: 'en_team', standardId: 'st_2', standardName: 'SAMM', standardVersion: '2.1.0', description: 'Own',
        levelName: 'Level 1', version: 1, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z',
      },
    ])
    const { wrapper } = await mountAt('/entities/en_team?tab=policies')
    const inherited = wrapper.get('[data-test="policy-inherited"]')
    expect(inherited.text()).toBe('inherited from Acme Corp')
    expect(inherited.get('a').attributes('href')).toBe('/entities/en_org')
    expect(wrapper.find('[data-test="policy-direct"]').exists()).toBe(true)
    // (Element Plus renders each column's slot once more without a row, to measure it.)
    const editLabels = wrapper.findAll('[aria-label^="Edit the policy for "]').map((button) => button.attributes('aria-label'))
    expect(editLabels.filter((label) => label !== 'Edit the policy for ')).toEqual(['Edit the policy for SAMM'])
    expect(wrapper.text()).toContain('ASVS 5.0.0')
    wrapper.unmount()
  })

  it('archives after confirmation and shows the new state', async () => {
    vi.spyOn(ElMessageBox, 'confirm').mockResolvedValue('confirm' as never)
    vi.mocked(updateEntity).mockResolvedValue({ ...team, state: 'archived', version: 4 })
    const { wrapper } = await mountAt('/entities/en_team')
    await wrapper.get('[data-test="entity-more"]').trigger('click')
    await flushPromises()
    const archive = [...document.querySelectorAll('.el-dropdown-menu__item')].find((item) => item.textContent?.includes('Archive'))
    ;(archive as HTMLElement).click()
    await flushPromises()
    expect(updateEntity).toHaveBeenCalledWith('en_team', { version: 3, state: 'archived' })
    expect(wrapper.get('[data-test="entity-state"]').attributes('data-state')).toBe('archived')
    wrapper.unmount()
  })
})
