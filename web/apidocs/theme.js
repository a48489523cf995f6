// Makes the API documentation page look like the application: it follows the theme
// the viewer chose in Assay (localStorage "assay.theme", as src/app/preferences.ts
// stores it) or else the system's prefers-color-scheme, and speaks the chosen language
// ("assay.locale") in its own bar. Loaded in <head>, before the page is painted, so a
// dark page never flashes white; an external file because the CSP forbids inline code.
'use strict'
;(function () {
  var THEME_KEY = 'assay.theme'
  var LOCALE_KEY = 'assay.locale'
  var BACK_LABEL = { en: 'Back to Assay', de: 'Zurück zu Assay' }
  var TITLE = { en: 'API documentation', de: 'API-Dokumentation' }
  var darkQuery = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null

  function stored(key) {
    try {
      return window.localStorage.getItem(key)
    } catch {
      return null
    }
  }

  function applyTheme() {
    var theme = stored(THEME_KEY)
    var dark = theme === 'dark' || (theme !== 'light' && darkQuery !== null && darkQuery.matches)
    // html.dark-mode is Swagger UI's own dark theme.
    document.documentElement.classList.toggle('dark-mode', dark)
    document.documentElement.style.colorScheme = dark ? 'dark' : 'light'
  }

  function locale() {
    var chosen = stored(LOCALE_KEY)
    if (chosen === 'en' || chosen === 'de') return chosen
    var languages = navigator.languages || [navigator.language]
    for (var i = 0; i < languages.length; i++) {
      var language = String(languages[i] || '').toLowerCase().split('-')[0]
      if (language === 'en' || language === 'de') return language
    }
    return 'en'
  }

  function applyLocale() {
    var lang = locale()
    document.documentElement.lang = lang
    var back = document.getElementById('back-to-app')
    if (back) back.textContent = BACK_LABEL[lang]
    var title = document.getElementById('docs-title')
    if (title) title.textContent = TITLE[lang]
  }

  applyTheme()
  if (darkQuery && darkQuery.addEventListener) darkQuery.addEventListener('change', applyTheme)
  // A choice made in the application in another tab applies here at once.
  window.addEventListener('storage', function (event) {
    if (event.key === THEME_KEY) applyTheme()
    if (event.key === LOCALE_KEY) applyLocale()
  })
  document.addEventListener('DOMContentLoaded', applyLocale)
})()
