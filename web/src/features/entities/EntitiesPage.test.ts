import { flushPromises, mount } from '@vue/test-utils'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter, type Router } from 'vue-router'
import { createAppI18n } from '../../app/i18n'
import { signedInAdmin, signedInPinia } from '../../app/session/fixtures'
import { listEntities, type Entity } from './api'
import EntitiesPage from './EntitiesPage.vue'

vi.mock('./api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./api')>()),
  listEntities: vi.fn(),
  fetchOrganisationGraph: vi.fn(async () => ({ nodes: [], edges: [], truncated: false })),
}))
vi.mock('../../resources/catalogue/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../resources/catalogue/api')>()),
  fetchTagOptions: vi.fn(async () => [{ id: 'tg_1', name: 'Critical', color: '#dc2626' }]),
  searchUsers: vi.fn(async () => []),
}))

const shop: Entity = {
  id: 'en_shop', name: 'Web Shop', description: 'The online shop', type: 'product', state: 'active', bomRef: 'en_shop',
  tags: [{ id: 'tg_1', name: 'Critical', color: '#dc2626' }], version: 1,
  createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z',
}

let router: Router

async function mountAt(path: string, permissions: string[]) {
  const pinia = signedInPinia(signedInAdmin, permissions)
  router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/entities', name: 'entities', component: EntitiesPage },
      { path: '/entities/:id', name: 'entity', component: { template: '<p>entity</p>' } },
    ],
  })
  await router.push(path)
  const wrapper = mount(EntitiesPage, { attachTo: document.body, global: { plugins: [pinia, router, createAppI18n('en')] } })
  await flushPromises()
  return wrapper
}

describe('EntitiesPage', () => {
  beforeEach(() => {
    vi.mocked(listEntities).mockReset().mockResolvedValue({ items: [shop], hasMore: false })
    document.body.innerHTML = ''
  })

  it('lists the entities with their type, state and tags, each linking to its page', async () => {
    const wrapper = await mountAt('/entities', ['entities.view'])
    const link = wrapper.get('[data-test="entity-link"]')
    expect(link.text()).toBe('Web Shop')
    expect(link.attributes('href')).toBe('/entities/en_shop')
    expect(wrapper.text()).toContain('Product')
    expect(wrapper.text()).toContain('Active')
    expect(wrapper.get('[data-test="tag-chip"]').text()).toBe('Critical')
    wrapper.unmount()
  })

  it('offers "New entity" only to those who may create entities', async () => {
    const reader = await mountAt('/entities', ['entities.view'])
    expect(reader.find('[data-test="entity-create"]').exists()).toBe(false)
    reader.unmount()
    const creator = await mountAt('/entities', ['entities.view', 'entities.create'])
    expect(creator.find('[data-test="entity-create"]').exists()).toBe(true)
    creator.unmount()
  })

  it('takes its filters from the URL, so a filtered list can be shared', async () => {
    const wrapper = await mountAt('/entities?state=archived&tag=tg_1&sort=-createdAt', ['entities.view'])
    expect(listEntities).toHaveBeenCalledWith(expect.objectContaining({ state: 'archived', tag: 'tg_1', sort: '-createdAt' }), undefined)
    wrapper.unmount()
  })

  it('says when no entity matches the filters', async () => {
    vi.mocked(listEntities).mockResolvedValue({ items: [], hasMore: false })
    const wrapper = await mountAt('/entities?q=nothing', ['entities.view'])
    expect(wrapper.text()).toContain('No entities match these filters.')
    wrapper.unmount()
  })

  it('shows the whole organisation as a graph in its second view, kept in the URL', async () => {
    const wrapper = await mountAt('/entities', ['entities.view'])
    await wrapper.get('[data-test="view-graph"] input').setValue(true)
    await flushPromises()
    expect(router.currentRoute.value.query.view).toBe('graph')
    expect(wrapper.find('[data-test="organisation-graph"]').exists()).toBe(true)
    wrapper.unmount()
  })
})
