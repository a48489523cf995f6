import { flushPromises, mount } from '@vue/test-utils'
import { ElMessageBox } from 'element-plus'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../api/errors'
import { createAppI18n } from '../../app/i18n'
import { createTag, deleteTag, listTags, type Tag } from './api'
import TagsPage from './TagsPage.vue'

vi.mock('./api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./api')>()),
  listTags: vi.fn(),
  createTag: vi.fn(),
  deleteTag: vi.fn(),
}))

const critical: Tag = {
  id: 'tg_1', name: 'Critical', color: '#dc2626', description: 'Outage stops the business',
  usage: { standards: 0, entities: 2, projects: 1 }, version: 1,
  createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z',
}

async function mountPage() {
  const pinia = createPinia()
  setActivePinia(pinia)
  const wrapper = mount(TagsPage, { attachTo: document.body, global: { plugins: [pinia, createAppI18n('en')] } })
  await flushPromises()
  return wrapper
}

describe('TagsPage', () => {
  beforeEach(() => {
    vi.mocked(listTags).mockReset().mockResolvedValue({ items: [critical], hasMore: false })
    vi.mocked(createTag).mockReset()
    vi.mocked(deleteTag).mockReset()
    document.body.innerHTML = ''
  })

  it('lists each tag with how many records carry it', async () => {
    const wrapper = await mountPage()
    const usage = wrapper.findAll('[data-test="tag-usage"]').map((cell) => cell.text()).filter((text) => text !== '')
    expect(usage[0]).toContain('no standards')
    expect(usage[0]).toContain('2 entities')
    expect(usage[0]).toContain('one project')
    wrapper.unmount()
  })

  it("puts the server's already_exists on the name field", async () => {
    vi.mocked(createTag).mockRejectedValue(
      new ApiError(409, 'already_exists', 'A tag with this name exists.', 'r1', [
        { field: 'name', code: 'already_exists', message: 'A tag named "critical" exists already (names ignore letter case).' },
      ]),
    )
    const wrapper = await mountPage()
    await wrapper.get('[data-test="tag-create"]').trigger('click')
    await flushPromises()
    const name = document.querySelector<HTMLInputElement>('[data-test="tag-name"] input, input[data-test="tag-name"]') as HTMLInputElement
    name.value = 'Brand new'
    name.dispatchEvent(new Event('input'))
    await flushPromises()
    ;(document.querySelector('[data-test="tag-submit"]') as HTMLButtonElement).click()
    await vi.waitFor(() => expect(createTag).toHaveBeenCalled())
    expect(vi.mocked(createTag).mock.calls[0]?.[0]).toMatchObject({ name: 'Brand new' })
    await vi.waitFor(() => expect(document.querySelector('[data-test="tag-dialog"]')?.textContent).toContain('exists already'))
    wrapper.unmount()
  })

  it('deletes after a confirmation that says it detaches the tag everywhere', async () => {
    const confirm = vi.spyOn(ElMessageBox, 'confirm').mockResolvedValue('confirm' as never)
    vi.mocked(deleteTag).mockResolvedValue()
    const wrapper = await mountPage()
    await wrapper.get('[aria-label="Delete tag Critical"]').trigger('click')
    await flushPromises()
    expect(String(confirm.mock.calls[0]?.[0])).toContain('removed from every standard, entity and project')
    expect(String(confirm.mock.calls[0]?.[0])).toContain('3 records carry it now.')
    expect(deleteTag).toHaveBeenCalledWith('tg_1')
    expect(wrapper.findAll('[data-test="tag-chip"]').length).toBe(0)
    wrapper.unmount()
  })
})
