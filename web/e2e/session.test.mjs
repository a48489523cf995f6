// Journeys through signing in and out. They complete setup, which an installation
// allows once, so they run against the second server at SETUP_BASE_URL (fresh when
// the run starts) and leave BASE_URL fresh for the other journeys. The journeys of
// this file run in order: the first sets up the installation through the wizard.
//
// The server allows 10 sign-in attempts (writes under /api/v1/auth/) per address in
// 15 minutes; these journeys use 8, so run them once per fresh server.
import assert from 'node:assert/strict'
import { SETUP_BASE_URL, journey, pathOf, setupUrl, skipOptionalSetupSteps, waitForPath } from './support.mjs'

const skip = SETUP_BASE_URL
  ? false
  : 'SETUP_BASE_URL is not set: these journeys need a second Assay server with a fresh database'

const ADMIN = {
  username: 'admin',
  email: 'admin@example.com',
  displayName: 'Ada Admin',
  password: 'correct horse battery staple',
}
const NEW_PASSWORD = 'a brand new passphrase 42'
const THIRD_PASSWORD = 'yet another passphrase 7'

// password is the administrator's password as far as the journeys so far have got.
let password = ADMIN.password

// ensureSetUp creates the administrator through the API unless setup is complete
// already, so the later journeys work even if the wizard journey failed early.
async function ensureSetUp() {
  const status = await fetch(setupUrl('/api/v1/setup/status'), { signal: AbortSignal.timeout(10_000) })
  assert.equal(status.status, 200)
  if ((await status.json()).setupComplete) return
  const created = await fetch(setupUrl('/api/v1/setup'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(ADMIN),
    signal: AbortSignal.timeout(20_000),
  })
  assert.equal(created.status, 201, `setup answered ${created.status}`)
  password = ADMIN.password
}

// signIn signs in through the sign-in page, which must be open.
async function signIn(page, secret) {
  await page.getByLabel('Username or e-mail address', { exact: true }).fill(ADMIN.username)
  await page.getByLabel('Password', { exact: true }).fill(secret)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

// changePassword fills and sends the change-password form of the profile page.
async function changePassword(page, current, next) {
  const form = page.getByRole('form', { name: 'Change password' })
  await form.getByLabel('Current password', { exact: true }).fill(current)
  await form.getByLabel('New password', { exact: true }).fill(next)
  await form.getByLabel('Confirm new password', { exact: true }).fill(next)
  await form.getByRole('button', { name: 'Change password' }).click()
}

journey(
  'set up, change the password, sign out, and sign in again with the new password',
  async ({ page }) => {
    // The wizard creates the administrator and, past its optional steps, lands on the dashboard, signed in.
    await page.goto(setupUrl('/'))
    await waitForPath(page, '/setup')
    const setupForm = page.getByRole('form', { name: 'Administrator account' })
    await setupForm.getByLabel('Username', { exact: true }).fill(ADMIN.username)
    await setupForm.getByLabel('E-mail address', { exact: true }).fill(ADMIN.email)
    await setupForm.getByLabel('Display name', { exact: true }).fill(ADMIN.displayName)
    await setupForm.getByLabel('Password', { exact: true }).fill(ADMIN.password)
    await setupForm.getByLabel('Confirm password', { exact: true }).fill(ADMIN.password)
    await page.getByRole('button', { name: 'Create administrator account' }).click()
    // A reload during the optional steps continues the wizard where it was.
    await page.getByRole('heading', { level: 2, name: 'Starter standards' }).waitFor()
    await page.reload()
    await page.getByRole('heading', { level: 2, name: 'Starter standards' }).waitFor()
    assert.equal(new URL(page.url()).search, '?step=starter')
    await skipOptionalSetupSteps(page)

    await waitForPath(page, '/')
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor()
    // The menu names the user: in its accessible name always, in words from 1,700 px on
    // (narrower, the avatar stands for it so that the navigation fits; AppLayout.vue).
    const userMenu = page.getByRole('button', { name: `${ADMIN.displayName} – account menu` })
    await userMenu.waitFor()
    assert.equal((await userMenu.textContent()).includes(ADMIN.displayName), true)

    // The user menu leads to the profile, which shows the account.
    await userMenu.click()
    await page.getByRole('menuitem', { name: 'Profile' }).click()
    await waitForPath(page, '/profile')
    await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor()
    const account = page.locator('.account-card__details')
    for (const text of [ADMIN.username, ADMIN.email, ADMIN.displayName, 'Administrator']) {
      await account.getByText(text, { exact: true }).first().waitFor()
    }
    assert.equal(await page.title(), 'Profile · Assay')
    // The wizard signed the administrator in: that is their last sign-in, not "Never".
    const lastSignIn = account.locator('dt', { hasText: 'Last sign-in' }).locator('xpath=following-sibling::dd[1]')
    assert.notEqual((await lastSignIn.textContent())?.trim(), 'Never')

    // Change the password.
    await changePassword(page, ADMIN.password, NEW_PASSWORD)
    await page.getByText('Your password has been changed.').waitFor()
    password = NEW_PASSWORD

    // Sign out from the user menu.
    await userMenu.click()
    await page.getByRole('menuitem', { name: 'Sign out' }).click()
    await waitForPath(page, '/login')
    await page.getByText('You have signed out.').waitFor()

    // Signed out, the profile leads to sign-in, which then returns to it.
    await page.goto(setupUrl('/profile'))
    await waitForPath(page, '/login')
    assert.equal(new URL(page.url()).search, '?redirect=%2Fprofile')
    await signIn(page, NEW_PASSWORD)
    await waitForPath(page, '/profile')
    await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor()
    await page.getByRole('button', { name: `${ADMIN.displayName} – account menu` }).waitFor()
  },
  { timeout: 90_000, skip },
)

journey(
  "a wrong password shows the server's message and stays on sign-in",
  async ({ page }) => {
    await ensureSetUp()
    await page.goto(setupUrl('/login?redirect=%2Fprofile'))
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor()
    await signIn(page, 'not the password at all')

    const alert = page.getByRole('alert').filter({ hasText: 'Signing in failed' })
    await alert.getByText('The username or password is incorrect', { exact: false }).waitFor()
    assert.equal(pathOf(page), '/login')
    assert.equal(new URL(page.url()).searchParams.get('redirect'), '/profile')
    assert.equal(await page.getByRole('button', { name: /– account menu$/ }).count(), 0)
  },
  { skip },
)

journey(
  'a session ended elsewhere sends the next action to sign-in, which explains it and returns',
  async ({ page, context }) => {
    await ensureSetUp()
    await page.goto(setupUrl('/profile'))
    await waitForPath(page, '/login')
    await signIn(page, password)
    await waitForPath(page, '/profile')
    await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor()

    // In another browser, the same user changes the password, which ends every other session.
    const elsewhere = await context.browser().newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } })
    try {
      const other = await elsewhere.newPage()
      other.setDefaultTimeout(15_000)
      await other.goto(setupUrl('/login?redirect=%2Fprofile'))
      await signIn(other, password)
      await waitForPath(other, '/profile')
      await changePassword(other, password, THIRD_PASSWORD)
      await other.getByText('Your password has been changed.').waitFor()
      password = THIRD_PASSWORD
    } finally {
      await elsewhere.close()
    }

    // The first browser's next call is refused: it lands on sign-in, told why.
    await changePassword(page, 'whatever it was', 'something new entirely')
    await waitForPath(page, '/login')
    assert.equal(new URL(page.url()).searchParams.get('redirect'), '/profile')
    await page.getByText('Your session has ended; sign in again.').waitFor()

    await signIn(page, password)
    await waitForPath(page, '/profile')
    await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor()
  },
  { timeout: 90_000, skip },
)
