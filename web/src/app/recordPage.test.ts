import { flushPromises, mount } from '@vue/test-utils'
import { describe, expect, it, vi } from 'vitest'
import { defineComponent, h } from 'vue'
import { createMemoryHistory, createRouter } from 'vue-router'
import { ApiError } from '../api/errors'
import { useRecordPage, type RecordPage, type RecordPageOptions } from './recordPage'

interface Thing {
  id: string
}

/** mountPage mounts a page of one thing at /things/:id, reading it with `fetch`. */
async function mountPage(fetch: (id: string) => Promise<Thing>, options: Partial<RecordPageOptions<Thing>> = {}) {
  let page!: RecordPage<Thing>
  const Page = defineComponent({
    setup() {
      page = useRecordPage({ fetch, ...options })
      return () => h('p')
    },
  })
  const router = createRouter({ history: createMemoryHistory(), routes: [{ path: '/things/:id', component: Page }] })
  await router.push('/things/t1')
  mount({ template: '<RouterView />' }, { global: { plugins: [router] } })
  await flushPromises()
  return { page, router }
}

describe('useRecordPage', () => {
  it('reads the record of the route and again when the id changes', async () => {
    const fetch = vi.fn(async (id: string) => ({ id }))
    const loaded = vi.fn()
    const { page, router } = await mountPage(fetch, { loaded })
    expect(page.record.value).toEqual({ id: 't1' })
    expect(page.loading.value).toBe(false)
    expect(loaded).toHaveBeenCalledWith({ id: 't1' })
    await router.push('/things/t2')
    await flushPromises()
    expect(fetch).toHaveBeenLastCalledWith('t2')
    expect(page.record.value).toEqual({ id: 't2' })
  })

  it('tells a record that is not there from one that could not be read', async () => {
    const missing = await mountPage(async () => Promise.reject(new ApiError(404, 'not_found', 'gone', 'r1')))
    expect(missing.page.notFound.value).toBe(true)
    expect(missing.page.loadFailure.value).toBeNull()
    const broken = await mountPage(async () => Promise.reject(new ApiError(500, 'internal_error', 'boom', 'r2')))
    expect(broken.page.notFound.value).toBe(false)
    expect(broken.page.loadFailure.value?.status).toBe(500)
    expect(broken.page.record.value).toBeNull()
  })

  it('keeps the record when a quiet reload fails, saying so as an action failure', async () => {
    const fetch = vi.fn<(id: string) => Promise<Thing>>().mockResolvedValueOnce({ id: 't1' }).mockRejectedValueOnce(new ApiError(503, 'unavailable', 'later', 'r3'))
    const { page } = await mountPage(fetch, { quietFailure: () => 'Could not refresh' })
    await page.load(true)
    expect(page.record.value).toEqual({ id: 't1' })
    expect(page.loadFailure.value).toBeNull()
    expect(page.actionFailure.value).toMatchObject({ title: 'Could not refresh', error: { status: 503 } })
  })

  it('runs an action with a busy flag and keeps its failure under its title', async () => {
    const { page } = await mountPage(async (id) => ({ id }))
    let busyWhileRunning = false
    expect(await page.run('Not done', async () => void (busyWhileRunning = page.busy.value))).toBe(true)
    expect(busyWhileRunning).toBe(true)
    expect(page.busy.value).toBe(false)
    const refused = new ApiError(409, 'in_use', 'in use', 'r4')
    expect(await page.run((error) => `Refused: ${error.error}`, async () => Promise.reject(refused))).toBe(false)
    expect(page.actionFailure.value).toEqual({ title: 'Refused: in_use', error: refused })
  })
})
