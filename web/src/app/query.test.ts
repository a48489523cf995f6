import { describe, expect, it } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { stringifyQuery } from './query'

describe('stringifyQuery', () => {
  it('encodes keys and values strictly', () => {
    expect(stringifyQuery({ redirect: '/profile?tab=a b&c=+' })).toBe('redirect=%2Fprofile%3Ftab%3Da%20b%26c%3D%2B')
  })

  it('repeats a key for each value, writes a null alone and leaves undefined out', () => {
    expect(stringifyQuery({ tag: ['a', 'b'], flag: null, gone: undefined, n: 3 })).toBe('tag=a&tag=b&flag&n=3')
  })

  it('round-trips through the router, which reads it back', async () => {
    const router = createRouter({
      history: createMemoryHistory(),
      routes: [{ path: '/login', component: { template: '<p/>' } }],
      stringifyQuery,
    })
    await router.replace({ path: '/login', query: { redirect: '/a?b=1&c=d e' } })
    expect(router.currentRoute.value.fullPath).toBe('/login?redirect=%2Fa%3Fb%3D1%26c%3Dd%20e')
    expect(router.currentRoute.value.query.redirect).toBe('/a?b=1&c=d e')
  })
})
