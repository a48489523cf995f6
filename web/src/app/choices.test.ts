import { flushPromises, mount } from '@vue/test-utils'
import { describe, expect, it, vi } from 'vitest'
import { defineComponent, h, type ShallowRef } from 'vue'
import { useChoices } from './choices'

function mountWith(fetch: () => Promise<string[]>, wanted?: () => boolean): ShallowRef<string[]> {
  let choices!: ShallowRef<string[]>
  mount(defineComponent({ setup: () => ((choices = useChoices(fetch, wanted)), () => h('p')) }))
  return choices
}

describe('useChoices', () => {
  it('reads the choices when mounted, only if wanted, and stays empty on a failure', async () => {
    const read = mountWith(async () => ['a', 'b'])
    await flushPromises()
    expect(read.value).toEqual(['a', 'b'])
    const fetch = vi.fn(async () => ['c'])
    const unwanted = mountWith(fetch, () => false)
    await flushPromises()
    expect(fetch).not.toHaveBeenCalled()
    expect(unwanted.value).toEqual([])
    const failed = mountWith(async () => Promise.reject(new Error('offline')))
    await flushPromises()
    expect(failed.value).toEqual([])
  })
})
