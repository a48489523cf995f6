// Journeys for the display preferences every page offers: language and theme.
import assert from 'node:assert/strict'
import { journey, url, waitForPath } from './support.mjs'

journey('switching to German translates the wizard and survives a reload', async ({ page }) => {
  await page.goto(url('/setup'))
  await page.getByRole('heading', { level: 1, name: 'Set up Assay' }).waitFor()
  assert.equal(await page.getAttribute('html', 'lang'), 'en')

  // Open the selector from the keyboard, as a keyboard-only user would.
  await page.getByRole('combobox', { name: 'Language' }).focus()
  await page.keyboard.press('Enter')
  await page.getByRole('option', { name: 'Deutsch' }).click()

  await page.getByRole('heading', { level: 1, name: 'Assay einrichten' }).waitFor()
  await page.waitForSelector('html[lang="de"]')
  assert.ok(await page.getByRole('button', { name: 'Administratorkonto anlegen' }).isVisible())

  await page.reload()
  await waitForPath(page, '/setup')
  await page.getByRole('heading', { level: 1, name: 'Assay einrichten' }).waitFor()
  assert.equal(await page.getAttribute('html', 'lang'), 'de')
})

journey('the theme toggle switches dark mode on and off and remembers it', async ({ page }) => {
  // eslint-disable-next-line no-undef -- page.evaluate runs the function in the browser
  const isDark = () => page.evaluate(() => document.documentElement.classList.contains('dark'))
  await page.goto(url('/setup'))
  await page.getByRole('heading', { level: 1, name: 'Set up Assay' }).waitFor()
  assert.equal(await isDark(), false, 'light by default when the system prefers light')

  await page.getByRole('button', { name: 'Switch to dark theme' }).click()
  await page.waitForSelector('html.dark')
  await page.reload()
  await page.getByRole('button', { name: 'Switch to light theme' }).waitFor()
  assert.equal(await isDark(), true, 'dark after a reload')

  await page.getByRole('button', { name: 'Switch to light theme' }).click()
  await page.waitForSelector('html:not(.dark)')
  await page.reload()
  await page.getByRole('button', { name: 'Switch to dark theme' }).waitFor()
  assert.equal(await isDark(), false, 'light again after a reload')
})

journey(
  'without a stored choice the theme follows the system preference',
  async ({ page }) => {
    await page.goto(url('/setup'))
    await page.waitForSelector('html.dark')
    // isVisible() does not wait: the toolbar may render a moment after the class is set.
    await page.getByRole('button', { name: 'Switch to light theme' }).waitFor({ state: 'visible' })
  },
  { colorScheme: 'dark' },
)
