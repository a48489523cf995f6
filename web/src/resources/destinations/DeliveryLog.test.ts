import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createAppI18n } from '../../app/i18n'
import { usePreferencesStore } from '../../app/preferences'
import type { Delivery, DeliveryLogApi } from './deliveries'
import DeliveryLog from './DeliveryLog.vue'

function delivery(overrides: Partial<Delivery> = {}): Delivery {
  return {
    id: 'dl_1',
    eventId: 'evt_1',
    eventType: 'channel.test',
    channel: 'webhook',
    destinationId: 'wh_1',
    status: 'failed',
    attempts: 6,
    maxAttempts: 6,
    lastStatus: 500,
    lastError: 'HTTP 500',
    createdAt: '2025-03-12T12:00:00Z',
    updatedAt: '2025-03-12T12:05:00Z',
    ...overrides,
  }
}

let mounted: VueWrapper | null = null

async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await flushPromises()
    await new Promise((resolve) => setTimeout(resolve, 0))
  }
}

async function mountLog(log: DeliveryLogApi): Promise<VueWrapper> {
  const pinia = createPinia()
  setActivePinia(pinia)
  usePreferencesStore().setLocale('en')
  mounted = mount(DeliveryLog, { props: { log, kind: 'webhook' }, attachTo: document.body, global: { plugins: [pinia, createAppI18n('en')] } })
  await settle()
  return mounted
}

function button(wrapper: VueWrapper, label: string) {
  return wrapper.findAll('button').find((item) => item.attributes('aria-label') === label)
}

afterEach(() => {
  mounted?.unmount()
  mounted = null
})

describe('the delivery log', () => {
  it('offers to redeliver finished deliveries only', async () => {
    const log: DeliveryLogApi = {
      list: vi.fn(async () => ({ items: [delivery(), delivery({ id: 'dl_2', status: 'succeeded', lastStatus: 204, lastError: '' })], hasMore: false })),
      get: vi.fn(),
      redeliver: vi.fn(async () => delivery({ status: 'pending' })),
    }
    const wrapper = await mountLog(log)
    expect(log.list).toHaveBeenCalledWith('', undefined)
    expect(wrapper.get('[data-test="delivery-status-dl_1"]').text()).toBe('Failed')
    expect(wrapper.text()).toContain('6 of 6')
    await button(wrapper, 'Redeliver dl_1')?.trigger('click')
    await settle()
    expect(log.redeliver).toHaveBeenCalledWith('dl_1')
  })

  it('shows a delivery’s attempts and payload when its details open', async () => {
    const detailed = delivery({
      status: 'retrying',
      attempts: 1,
      nextAttemptAt: '2025-03-12T12:10:00Z',
      attemptLog: [
        { attempt: 1, startedAt: '2025-03-12T12:00:01Z', duration: '153ms', outcome: 'failed', httpStatus: 503, error: 'HTTP 503', response: 'busy' },
      ],
      payload: { id: 'evt_1', type: 'channel.test' },
    })
    const log: DeliveryLogApi = {
      list: vi.fn(async () => ({ items: [delivery({ status: 'failed' })], hasMore: false })),
      get: vi.fn(async () => detailed),
      redeliver: vi.fn(),
    }
    const wrapper = await mountLog(log)
    await button(wrapper, 'Show the details of delivery dl_1')?.trigger('click')
    await settle()
    expect(log.get).toHaveBeenCalledWith('dl_1')
    const detail = wrapper.get('[data-test="delivery-detail-dl_1"]')
    expect(detail.text()).toContain('153ms')
    expect(detail.text()).toContain('503')
    expect(detail.text()).toContain('HTTP 503')
    expect(detail.get('[data-test="delivery-payload"]').text()).toContain('"type": "channel.test"')
    expect(button(wrapper, 'Hide the details of delivery dl_1')?.attributes('aria-expanded')).toBe('true')
  })

  it('shows each delivery as a card on a phone, with its status and actions in view, and opens its details there', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query.includes('max-width'), media: query, addEventListener() {}, removeEventListener() {} }))
    try {
      const log: DeliveryLogApi = {
        list: vi.fn(async () => ({ items: [delivery()], hasMore: false })),
        get: vi.fn(async () => delivery({ payload: { id: 'evt_1', type: 'channel.test' } })),
        redeliver: vi.fn(),
      }
      const wrapper = await mountLog(log)
      expect(wrapper.find('.el-table').exists()).toBe(false)
      const card = wrapper.get('[data-test="delivery-card"]')
      expect(card.get('[data-test="delivery-status-dl_1"]').text()).toBe('Failed')
      expect(card.text()).toContain('6 of 6')
      expect(card.text()).toContain('HTTP 500')
      expect(button(wrapper, 'Redeliver dl_1')).toBeDefined()
      await button(wrapper, 'Show the details of delivery dl_1')?.trigger('click')
      await settle()
      expect(log.get).toHaveBeenCalledWith('dl_1')
      expect(card.find('[data-test="delivery-detail-dl_1"]').exists()).toBe(true)
      expect(button(wrapper, 'Hide the details of delivery dl_1')?.attributes('aria-expanded')).toBe('true')
    } finally {
      vi.unstubAllGlobals()
    }
  })

  it('looks again while a delivery waits for its attempt, and stops once all are finished', async () => {
    const list = vi
      .fn()
      .mockResolvedValueOnce({ items: [delivery({ status: 'pending', attempts: 0 })], hasMore: false })
      .mockResolvedValue({ items: [delivery({ status: 'succeeded' })], hasMore: false })
    const wrapper = await mountLog({ list, get: vi.fn(), redeliver: vi.fn() })
    expect(wrapper.get('[data-test="delivery-status-dl_1"]').text()).toBe('Pending')
    await vi.waitFor(() => expect(wrapper.get('[data-test="delivery-status-dl_1"]').text()).toBe('Succeeded'), {
      timeout: 5_000,
    })
    expect(list).toHaveBeenCalledTimes(2)
    await new Promise((resolve) => setTimeout(resolve, 2_500))
    expect(list).toHaveBeenCalledTimes(2)
  })
})
