import { describe, expect, it } from 'vitest'
import { loginLocation, safeRedirect } from './redirect'

describe('safeRedirect', () => {
  it.each([
    ['/assessments/as_1?tab=claims', '/assessments/as_1?tab=claims'],
    ['/profile', '/profile'],
    ['/search?q=a%2Fb#results', '/search?q=a%2Fb#results'],
    ['/', '/'],
  ])('keeps the in-app path %s', (requested, expected) => {
    expect(safeRedirect(requested)).toBe(expected)
  })

  it.each([
    ['a protocol-relative URL', '//evil.example/x'],
    ['a protocol-relative URL with a backslash', '/\\evil.example'],
    ['a backslash later in the path', '/a\\..\\\\evil.example'],
    ['an absolute URL', 'https://evil.example'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a tab that browsers drop', '/\t/evil.example'],
    ['a newline that browsers drop', '/\n/evil.example'],
    ['a leading space', ' /profile'],
    ['a relative path', 'dashboard'],
    ['an empty string', ''],
    ['a missing value', undefined],
    ['a null value', null],
    ['a repeated query parameter', ['/a', '/b']],
    ['an overly long path', `/${'a'.repeat(3000)}`],
  ])('refuses %s and goes to the dashboard', (_case, requested) => {
    expect(safeRedirect(requested)).toBe('/')
  })
})

describe('loginLocation', () => {
  it('carries the page to return to', () => {
    expect(loginLocation('/profile')).toEqual({ path: '/login', query: { redirect: '/profile' } })
    expect(loginLocation('/a?b=1&c=2')).toEqual({ path: '/login', query: { redirect: '/a?b=1&c=2' } })
  })

  it('needs no redirect for the home page or an unsafe target', () => {
    expect(loginLocation('/')).toEqual({ path: '/login' })
    expect(loginLocation('//evil.example')).toEqual({ path: '/login' })
  })
})
