// Journeys through the first-run state of a fresh installation (no user yet).
// None of them submits a valid account, so they leave the installation fresh.
import assert from 'node:assert/strict'
import { journey, pathOf, url, waitForPath } from './support.mjs'

journey('opening the home page of a fresh installation lands on the setup wizard', async ({ page }) => {
  await page.goto(url('/'))
  await waitForPath(page, '/setup')

  await page.getByRole('heading', { level: 1, name: 'Set up Assay' }).waitFor()
  const form = page.getByRole('form', { name: 'Administrator account' })
  await form.waitFor()
  for (const label of ['Username', 'E-mail address', 'Display name', 'Password', 'Confirm password']) {
    assert.ok(await form.getByLabel(label, { exact: true }).isVisible(), `field "${label}" is visible`)
  }
  assert.ok(await page.getByRole('button', { name: 'Create administrator account' }).isVisible())
  assert.equal(await page.title(), 'Set up Assay · Assay')

  // The tab shows the Assay mark: the icon the page names is an SVG the server has.
  const icon = await page.locator('link[rel="icon"]').getAttribute('href')
  assert.equal(icon, '/favicon.svg')
  const response = await page.request.get(url(icon))
  assert.equal(response.status(), 200)
  assert.match(response.headers()['content-type'], /^image\/svg\+xml/)
  assert.match(await response.text(), /^<svg /)
})

// An unknown UI path shows the not-found page even on a fresh installation; its
// home link then leads on to the wizard.
journey('an unknown path on a fresh installation shows the not-found page', async ({ page }) => {
  const res = await page.goto(url('/no/such/page'))
  assert.equal(res.status(), 200)
  await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor()
  assert.equal(pathOf(page), '/no/such/page')
  await page.getByRole('link', { name: 'Go to the dashboard', exact: true }).click()
  await waitForPath(page, '/setup')
  await page.getByRole('heading', { level: 1, name: 'Set up Assay' }).waitFor()
})

journey('the wizard refuses a too-short password and a mismatched confirmation', async ({ page }) => {
  const submitted = []
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/v1/setup') submitted.push(request)
  })
  await page.goto(url('/setup'))
  const form = page.getByRole('form', { name: 'Administrator account' })
  await form.getByLabel('Username', { exact: true }).fill('admin')
  await form.getByLabel('E-mail address', { exact: true }).fill('admin@example.com')
  await form.getByLabel('Display name', { exact: true }).fill('Ada Admin')
  await form.getByLabel('Password', { exact: true }).fill('short')
  await form.getByLabel('Confirm password', { exact: true }).fill('different')
  await page.getByRole('button', { name: 'Create administrator account' }).click()

  await page.getByText('The password must be at least 12 characters long.').waitFor()
  await page.getByText('The passwords do not match.').waitFor()
  assert.equal(pathOf(page), '/setup')
  assert.equal(submitted.length, 0, 'nothing was sent to the server')
})

// The username field has the focus, so clicking the button first blurs (and so validates)
// it. The first click must still submit and show every problem at once.
journey('the first submit of an empty wizard shows every missing field at once', async ({ page }) => {
  await page.goto(url('/setup'))
  const form = page.getByRole('form', { name: 'Administrator account' })
  await form.getByLabel('Username', { exact: true }).focus()
  await page.getByRole('button', { name: 'Create administrator account' }).click()
  for (const message of [
    'Enter a username.',
    'Enter an e-mail address.',
    'Enter a display name.',
    'Enter a password.',
    'Enter the password again.',
  ]) {
    await form.getByText(message, { exact: true }).waitFor()
  }
  assert.equal(pathOf(page), '/setup')
})

// The browser's own check of type="email" would stop the submit at the first bad
// field with a tooltip of its own; the wizard explains every field in its words.
journey('the wizard explains a bad e-mail address and the other fields together', async ({ page }) => {
  await page.goto(url('/setup'))
  const form = page.getByRole('form', { name: 'Administrator account' })
  await form.getByLabel('Username', { exact: true }).fill('ab')
  await form.getByLabel('E-mail address', { exact: true }).fill('admin.example.com')
  await page.getByRole('button', { name: 'Create administrator account' }).click()
  for (const message of [
    'The username must be between 3 and 64 characters long.',
    'Enter a valid e-mail address.',
    'Enter a display name.',
    'Enter a password.',
    'Enter the password again.',
  ]) {
    await form.getByText(message, { exact: true }).waitFor()
  }
})

// Before setup nobody can sign in, so a page that needs a session leads to the
// wizard, not to the sign-in page.
journey('a signed-in page of a fresh installation leads to the wizard, not to sign-in', async ({ page }) => {
  await page.goto(url('/profile'))
  await waitForPath(page, '/setup')
  await page.getByRole('heading', { level: 1, name: 'Set up Assay' }).waitFor()
})
