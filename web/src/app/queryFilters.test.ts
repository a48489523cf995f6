import { flushPromises, mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { defineComponent, h, type WritableComputedRef } from 'vue'
import { createMemoryHistory, createRouter } from 'vue-router'
import { queryChoice, queryText, sameQuery, useQueryTab } from './queryFilters'

describe('sameQuery', () => {
  it('compares values whatever the key order, absent equal to empty', () => {
    expect(sameQuery({ a: '1', b: 'x' }, { b: 'x', a: '1' })).toBe(true)
    expect(sameQuery({ a: '1' }, { a: '1', b: undefined })).toBe(true)
    expect(sameQuery({ a: '1' }, { a: '2' })).toBe(false)
  })
})

describe('queryText and queryChoice', () => {
  it('read the first text of a query value, and only an allowed choice', () => {
    expect(queryText('a')).toBe('a')
    expect(queryText(['b', 'c'])).toBe('b')
    expect(queryText([null])).toBe('')
    expect(queryText(undefined)).toBe('')
    expect(queryChoice('draft', ['draft', 'done'] as const, '')).toBe('draft')
    expect(queryChoice('other', ['draft', 'done'] as const, '')).toBe('')
    expect(queryChoice('other', ['name', '-createdAt'] as const, 'name')).toBe('name')
  })
})

describe('useQueryTab', () => {
  it('keeps the tab in the URL, the first one being the default left out', async () => {
    let tab!: WritableComputedRef<'one' | 'two'>
    const Page = defineComponent({ setup: () => ((tab = useQueryTab(['one', 'two'] as const)), () => h('p')) })
    const router = createRouter({ history: createMemoryHistory(), routes: [{ path: '/page', component: Page }] })
    await router.push('/page?tab=lost&keep=1')
    mount({ template: '<RouterView />' }, { global: { plugins: [router] } })
    await flushPromises()
    expect(tab.value).toBe('one')
    tab.value = 'two'
    await flushPromises()
    expect(router.currentRoute.value.query).toEqual({ tab: 'two', keep: '1' })
    tab.value = 'one'
    await flushPromises()
    expect(router.currentRoute.value.query).toEqual({ keep: '1' })
  })
})
