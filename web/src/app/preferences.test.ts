import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { LOCALE_STORAGE_KEY, THEME_STORAGE_KEY, usePreferencesStore } from './preferences'

function stubSystemTheme(dark: boolean): void {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: dark && query.includes('dark'),
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }))
}

const html = document.documentElement

beforeEach(() => {
  localStorage.clear()
  html.className = ''
  html.lang = ''
  setActivePinia(createPinia())
})

describe('theme', () => {
  it('follows the system preference until the viewer chooses', () => {
    stubSystemTheme(true)
    const preferences = usePreferencesStore()
    expect(preferences.theme).toBe('dark')
    expect(html.classList.contains('dark')).toBe(true)
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBeNull()
  })

  it('toggling applies html.dark and remembers the choice for the next visit', () => {
    stubSystemTheme(false)
    const preferences = usePreferencesStore()
    expect(html.classList.contains('dark')).toBe(false)

    preferences.toggleTheme()
    expect(html.classList.contains('dark')).toBe(true)
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark')

    setActivePinia(createPinia())
    html.className = ''
    expect(usePreferencesStore().theme).toBe('dark')
    expect(html.classList.contains('dark')).toBe(true)

    usePreferencesStore().toggleTheme()
    expect(html.classList.contains('dark')).toBe(false)
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('light')
  })

  it('ignores a stored value it does not understand', () => {
    stubSystemTheme(false)
    localStorage.setItem(THEME_STORAGE_KEY, 'purple')
    expect(usePreferencesStore().theme).toBe('light')
  })
})

describe('locale', () => {
  it('starts from the browser language when nothing is stored', () => {
    stubSystemTheme(false)
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['de-AT', 'en'])
    expect(usePreferencesStore().locale).toBe('de')
    expect(html.lang).toBe('de')
  })

  it('falls back to English for an unsupported browser language', () => {
    stubSystemTheme(false)
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['fr-FR'])
    expect(usePreferencesStore().locale).toBe('en')
  })

  it('switching sets <html lang> and is remembered for the next visit', () => {
    stubSystemTheme(false)
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['en-US'])
    usePreferencesStore().setLocale('de')
    expect(html.lang).toBe('de')
    expect(localStorage.getItem(LOCALE_STORAGE_KEY)).toBe('de')

    setActivePinia(createPinia())
    html.lang = ''
    expect(usePreferencesStore().locale).toBe('de')
    expect(html.lang).toBe('de')
  })
})
