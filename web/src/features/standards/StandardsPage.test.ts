import { flushPromises, mount } from '@vue/test-utils'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter, type Router } from 'vue-router'
import { createAppI18n } from '../../app/i18n'
import { signedInAssessee, signedInPinia } from '../../app/session/fixtures'
import { listStandards } from './api'
import { standard } from './fixtures'
import StandardsPage from './StandardsPage.vue'

vi.mock('./api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./api')>()),
  listStandards: vi.fn(),
  listTagOptions: vi.fn(async () => [{ id: 'tg_1', name: 'Web', color: '#2563eb' }]),
}))

async function mountAt(path: string, permissions: string[]): Promise<{ router: Router; text: () => string; unmount: () => void }> {
  const pinia = signedInPinia(signedInAssessee, permissions)
  const Stub = { template: '<div />' }
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/standards', name: 'standards', component: StandardsPage },
      { path: '/standards/feed', name: 'standards-feed', component: Stub },
      { path: '/standards/:id', name: 'standard', component: Stub },
    ],
  })
  await router.push(path)
  const wrapper = mount(StandardsPage, { attachTo: document.body, global: { plugins: [pinia, router, createAppI18n('en')] } })
  await flushPromises()
  return { router, text: () => document.body.textContent ?? '', unmount: () => wrapper.unmount() }
}

describe('StandardsPage', () => {
  beforeEach(() => {
    vi.mocked(listStandards).mockReset()
    vi.mocked(listStandards).mockResolvedValue({
      items: [standard(), standard({ id: 'st_2', standardVersion: '4.0.3', state: 'published', requirementCount: 286, levelCount: 3 })],
      hasMore: false,
    })
    document.body.innerHTML = ''
  })

  it('lists the standards with version, state, owner, counts and tags', async () => {
    const page = await mountAt('/standards', ['standards.view'])
    const text = page.text()
    expect(text).toContain('OWASP ASVS')
    expect(text).toContain('owasp-asvs')
    expect(text).toContain('4.0.3')
    expect(text).toContain('Published')
    expect(text).toContain('Draft')
    expect(text).toContain('286 requirements')
    expect(text).toContain('3 levels')
    expect(text).toContain('Web')
    page.unmount()
  })

  it('reads its filters from the URL and asks the server with them', async () => {
    const page = await mountAt('/standards?state=published&q=asvs&sort=-createdAt', ['standards.view'])
    expect(listStandards).toHaveBeenCalledWith(expect.objectContaining({ state: 'published', q: 'asvs', sort: '-createdAt' }), undefined)
    page.unmount()
  })

  it('shows the versions of one identifier together and keeps that in the URL', async () => {
    const page = await mountAt('/standards', ['standards.view'])
    const link = [...document.querySelectorAll('button')].find((b) => b.getAttribute('aria-label') === 'Show all versions of owasp-asvs')
    link!.click()
    await flushPromises()
    expect(page.router.currentRoute.value.query).toEqual({ identifier: 'owasp-asvs' })
    expect(listStandards).toHaveBeenLastCalledWith(expect.objectContaining({ identifier: 'owasp-asvs' }), undefined)
    expect(page.text()).toContain('Showing the versions of owasp-asvs.')
    page.unmount()
  })

  it('follows the URL when it changes (Back)', async () => {
    const page = await mountAt('/standards', ['standards.view'])
    await page.router.push('/standards?state=retired')
    await flushPromises()
    expect(listStandards).toHaveBeenLastCalledWith(expect.objectContaining({ state: 'retired' }), undefined)
    page.unmount()
  })

  it('says there are no standards yet, and offers Import, when no filter narrows the list', async () => {
    vi.mocked(listStandards).mockResolvedValue({ items: [], hasMore: false })
    const page = await mountAt('/standards', ['standards.view', 'standards.import'])
    expect(page.text()).toContain('No standards yet.')
    expect(page.text()).not.toContain('No standards match.')
    const importButton = document.querySelector<HTMLButtonElement>('[data-test="empty-import"]')
    expect(importButton?.textContent).toContain('Import a standard')
    page.unmount()

    const reader = await mountAt('/standards', ['standards.view'])
    expect(reader.text()).toContain('No standards yet.')
    expect(reader.text()).not.toContain('Import')
    reader.unmount()

    const filtered = await mountAt('/standards?state=retired', ['standards.view', 'standards.import'])
    expect(filtered.text()).toContain('No standards match.')
    expect(document.querySelector('[data-test="empty-import"]')).toBeNull()
    filtered.unmount()
  })

  it('offers creating, importing and the feed only to those who may', async () => {
    const viewer = await mountAt('/standards', ['standards.view'])
    expect(document.querySelector('[data-test="open-create"]')).toBeNull()
    expect(document.querySelector('[data-test="open-import"]')).toBeNull()
    expect(document.querySelector('[data-test="open-feed"]')).toBeNull()
    viewer.unmount()
    document.body.innerHTML = ''
    const importer = await mountAt('/standards', ['standards.view', 'standards.create', 'standards.import'])
    expect(document.querySelector('[data-test="open-create"]')).not.toBeNull()
    expect(document.querySelector('[data-test="open-import"]')).not.toBeNull()
    expect(document.querySelector('[data-test="open-feed"]')).not.toBeNull()
    importer.unmount()
  })
})
