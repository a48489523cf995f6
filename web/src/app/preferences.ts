import { defineStore } from 'pinia'
import { ref } from 'vue'

/** Theme is the colour scheme of the UI. */
export type Theme = 'light' | 'dark'

/** SUPPORTED_LOCALES lists the languages the UI is translated into. */
export const SUPPORTED_LOCALES = ['en', 'de'] as const

/** Locale is one of SUPPORTED_LOCALES. */
export type Locale = (typeof SUPPORTED_LOCALES)[number]

/** THEME_STORAGE_KEY and LOCALE_STORAGE_KEY name the localStorage entries that remember a choice. */
export const THEME_STORAGE_KEY = 'assay.theme'
export const LOCALE_STORAGE_KEY = 'assay.locale'

const DARK_QUERY = '(prefers-color-scheme: dark)'

function isTheme(value: unknown): value is Theme {
  return value === 'light' || value === 'dark'
}

/** isLocale reports whether value names a supported locale. */
export function isLocale(value: unknown): value is Locale {
  return (SUPPORTED_LOCALES as readonly unknown[]).includes(value)
}

// Storage can be unavailable (privacy modes, disabled cookies); preferences then
// simply last for the page's lifetime.
function readStored<T>(key: string, valid: (value: unknown) => value is T): T | null {
  try {
    const value = window.localStorage.getItem(key)
    return valid(value) ? value : null
  } catch {
    return null
  }
}

function writeStored(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value)
  } catch {
    // Not persisted; the choice still applies to this page.
  }
}

function darkQuery(): MediaQueryList | null {
  return typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : null
}

function browserLocale(): Locale {
  for (const tag of navigator.languages ?? [navigator.language]) {
    const language = tag?.toLowerCase().split('-')[0]
    if (isLocale(language)) return language
  }
  return 'en'
}

/**
 * usePreferencesStore holds the viewer's display preferences. Both are applied to
 * the document at once (`html.dark` for Element Plus' dark variables, `<html lang>`
 * for assistive technology) and remembered in localStorage. Until the viewer picks
 * a theme, it follows the operating system's `prefers-color-scheme`.
 */
export const usePreferencesStore = defineStore('preferences', () => {
  const storedTheme = readStored(THEME_STORAGE_KEY, isTheme)
  const query = darkQuery()
  const theme = ref<Theme>(storedTheme ?? (query?.matches ? 'dark' : 'light'))
  const themeChosen = ref(storedTheme !== null)
  const locale = ref<Locale>(readStored(LOCALE_STORAGE_KEY, isLocale) ?? browserLocale())

  function applyTheme(): void {
    const root = document.documentElement
    root.classList.toggle('dark', theme.value === 'dark')
    root.style.colorScheme = theme.value
  }

  function applyLocale(): void {
    document.documentElement.lang = locale.value
  }

  /** setTheme switches to the given theme and remembers the choice. */
  function setTheme(next: Theme): void {
    theme.value = next
    themeChosen.value = true
    writeStored(THEME_STORAGE_KEY, next)
    applyTheme()
  }

  /** toggleTheme switches between light and dark. */
  function toggleTheme(): void {
    setTheme(theme.value === 'dark' ? 'light' : 'dark')
  }

  /** setLocale switches the UI language and remembers the choice. */
  function setLocale(next: Locale): void {
    locale.value = next
    writeStored(LOCALE_STORAGE_KEY, next)
    applyLocale()
  }

  query?.addEventListener?.('change', (event) => {
    if (themeChosen.value) return
    theme.value = event.matches ? 'dark' : 'light'
    applyTheme()
  })

  applyTheme()
  applyLocale()

  return { theme, locale, setTheme, toggleTheme, setLocale }
})
