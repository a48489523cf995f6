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

// Before setup nobody can sign in, so a page that needs a session leads to the
// wizard, not to the sign-in page.
journey('a signed-in page of a fresh installation leads to the wizard, not to sign-in', async ({ page }) => {
  await page.goto(url('/profile'))
  await waitForPath(page, '/setup')
  await page.getByRole('heading', { level: 1, name: 'Set up Assay' }).waitFor()
})
