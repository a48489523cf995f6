import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { ApiError } from '../../api/client'
import { createAppI18n } from '../../app/i18n'
import { usePreferencesStore } from '../../app/preferences'
import { importFeedItem, listFeed } from './api'
import FeedPage from './FeedPage.vue'
import { feedItem, standard } from './fixtures'

vi.mock('./api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./api')>()),
  listFeed: vi.fn(),
  importFeedItem: vi.fn(),
}))

let wrapper: VueWrapper | null = null

async function mountPage(): Promise<void> {
  const pinia = createPinia()
  setActivePinia(pinia)
  usePreferencesStore().setLocale('en')
  const Stub = { template: '<div />' }
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/standards', name: 'standards', component: Stub },
      { path: '/standards/feed', name: 'standards-feed', component: FeedPage },
      { path: '/standards/:id', name: 'standard', component: Stub },
    ],
  })
  await router.push('/standards/feed')
  wrapper = mount(FeedPage, { attachTo: document.body, global: { plugins: [pinia, router, createAppI18n('en')] } })
  await flushPromises()
}

const items = () => [...document.querySelectorAll<HTMLElement>('[data-test="feed-item"]')]
const item = (id: string) => items().find((element) => element.dataset.id === id)!

describe('FeedPage', () => {
  beforeEach(() => {
    document.body.innerHTML = ''
    vi.mocked(listFeed).mockReset()
    vi.mocked(importFeedItem).mockReset()
  })
  afterEach(() => {
    wrapper?.unmount()
    wrapper = null
  })

  it('shows each item with its status and the import each status allows', async () => {
    vi.mocked(listFeed).mockResolvedValue([
      feedItem({ id: 'new@1', status: 'not_imported' }),
      feedItem({ id: 'have@1', status: 'imported', importedId: 'st_9', standardIds: ['st_9'] }),
      feedItem({ id: 'newer@2', status: 'update_available', version: '2.0', standardIds: ['st_8'] }),
    ])
    await mountPage()
    expect(items()).toHaveLength(3)
    expect(item('new@1').querySelector('[data-test="feed-status"]')?.textContent?.trim()).toBe('Not imported')
    expect(item('new@1').querySelector('[data-test="feed-import"]')?.textContent?.trim()).toBe('Import')
    expect(item('have@1').querySelector('[data-test="feed-status"]')?.textContent?.trim()).toBe('Imported')
    expect(item('have@1').querySelector('[data-test="feed-import"]')).toBeNull()
    expect(item('have@1').querySelector('a')?.getAttribute('href')).toBe('/standards/st_9')
    expect(item('newer@2').querySelector('[data-test="feed-status"]')?.textContent?.trim()).toBe('Update available')
    expect(item('newer@2').querySelector('[data-test="feed-import"]')?.textContent?.trim()).toBe('Import new version')
  })

  it('imports an item and reads the feed again', async () => {
    vi.mocked(listFeed)
      .mockResolvedValueOnce([feedItem({ status: 'not_imported' })])
      .mockResolvedValueOnce([feedItem({ status: 'imported', importedId: 'st_1' })])
    vi.mocked(importFeedItem).mockResolvedValue({ created: 1, unchanged: 0, standards: [{ ...standard(), outcome: 'created', warnings: [] }] })
    await mountPage()
    items()[0]!.querySelector<HTMLButtonElement>('[data-test="feed-import"]')!.click()
    await flushPromises()
    expect(importFeedItem).toHaveBeenCalledWith('application-security-verification-standard-asvs-@5.0.0')
    expect(items()[0]!.querySelector('[data-test="feed-status"]')?.textContent?.trim()).toBe('Imported')
  })

  it('shows the server’s explanation when the feed cannot be read', async () => {
    vi.mocked(listFeed).mockRejectedValue(new ApiError(422, 'business_rule_violation', 'The standards feed could not be fetched: connection refused.', 'req'))
    await mountPage()
    const alert = document.querySelector('[data-test="feed-error"]')?.textContent ?? ''
    expect(alert).toContain('The feed could not be loaded')
    expect(alert).toContain('connection refused')
  })
})
