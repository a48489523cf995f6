import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { describe, expect, it, vi } from 'vitest'
import { createAppI18n } from '../../app/i18n'
import ApiKeysCard from './ApiKeysCard.vue'

vi.mock('./api', async (importOriginal) => {
  const { mockedApiKeys } = await import('./fixtures')
  return mockedApiKeys(await importOriginal(), vi.fn(async () => ({ items: [], hasMore: false })))
})

// The table in the edit user drawer: min(640px, 100vw) less the drawer's and the card's padding.
const DRAWER_TABLE_WIDTH = 640 - 2 * 20 - 2 * 21

describe('ApiKeysCard', () => {
  it.each(['en', 'de'] as const)("fits all its columns into a user's edit drawer, the status column wide enough for its header (%s)", async (locale) => {
    setActivePinia(createPinia())
    const wrapper = mount(ApiKeysCard, { props: { userId: 'u_1', username: 'bob' }, global: { plugins: [createAppI18n(locale)] } })
    await flushPromises()
    // With no layout in jsdom, Element Plus gives every column its minimum width.
    const widths = wrapper.findAll('.el-table__header colgroup col').map((col) => Number(col.attributes('width') ?? 0))
    const headers = wrapper.findAll('.el-table__header th').map((th) => th.text())
    expect(headers).toContain('Status')
    expect(widths.reduce((sum, width) => sum + width, 0)).toBeLessThanOrEqual(DRAWER_TABLE_WIDTH)
    expect(widths[headers.indexOf('Status')]).toBeGreaterThanOrEqual(100)
    wrapper.unmount()
  })
})
