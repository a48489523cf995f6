import { describe, expect, it } from 'vitest'
import { safeRedirect } from './api'

describe('safeRedirect', () => {
  it.each([
    ['/assessments/as_1?tab=claims', '/assessments/as_1?tab=claims'],
    ['/', '/'],
  ])('keeps the in-app path %s', (requested, expected) => {
    expect(safeRedirect(requested)).toBe(expected)
  })

  it.each(['//evil.example/x', '/\\evil.example', 'https://evil.example', 'dashboard', '', undefined, ['/a']])(
    'refuses %s and goes to the dashboard',
    (requested) => {
      expect(safeRedirect(requested)).toBe('/')
    },
  )
})
