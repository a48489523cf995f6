// The administration journey: an administrator invites a user, who registers
// through the invite link; a custom role then gives that user a page of the
// Administration group, which their navigation shows at the next page load
// without signing in again.
//
// It runs against its own fresh server at ADMIN_BASE_URL, started with
// REGISTRATION_MODE=invite_only, because it completes setup and signs in. It uses
// 2 of the server's 10 sign-in and registration writes per address in 15 minutes
// (the wizard's setup is not one of them): one registration and one sign-in. The
// journeys of notifications.journeys.mjs follow on the same installation.
import assert from 'node:assert/strict'
import { mobileJourneys } from './mobile.journeys.mjs'
import { notificationJourneys } from './notifications.journeys.mjs'
import { ADMIN_BASE_URL, adminUrl, journey, skipOptionalSetupSteps, waitForPath } from './support.mjs'

const skip = ADMIN_BASE_URL
  ? false
  : 'ADMIN_BASE_URL is not set: this journey needs a third Assay server with a fresh database (REGISTRATION_MODE=invite_only)'

const ADMIN = {
  username: 'root',
  email: 'root@example.com',
  displayName: 'Rita Root',
  password: 'administration journey passphrase 1',
}
const INVITEE = {
  username: 'ivy',
  email: 'ivy@example.com',
  displayName: 'Ivy Invitee',
  password: 'invited user passphrase 2',
}

// fillAccount fills the account form shared by setup and registration.
async function fillAccount(form, account) {
  await form.getByLabel('Username', { exact: true }).fill(account.username)
  await form.getByLabel('E-mail address', { exact: true }).fill(account.email)
  await form.getByLabel('Display name', { exact: true }).fill(account.displayName)
  await form.getByLabel('Password', { exact: true }).fill(account.password)
  await form.getByLabel('Confirm password', { exact: true }).fill(account.password)
}

// openAdministration opens an entry of the Administration group of the main navigation.
async function openAdministration(page, entry) {
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('button', { name: 'Administration' }).click()
  await page.getByRole('menuitem', { name: entry, exact: true }).click()
  await page.getByRole('heading', { level: 1, name: entry }).waitFor()
}

journey(
  'invite a user, who registers; a custom role then shows them the audit log',
  async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ADMIN_BASE_URL })

    // Set up the installation through the wizard.
    const status = await fetch(adminUrl('/api/v1/setup/status'), { signal: AbortSignal.timeout(10_000) })
    assert.equal((await status.json()).setupComplete, false, 'ADMIN_BASE_URL must be a fresh installation')
    await page.goto(adminUrl('/'))
    await waitForPath(page, '/setup')
    await fillAccount(page.getByRole('form', { name: 'Administrator account' }), ADMIN)
    await page.getByRole('button', { name: 'Create administrator account' }).click()
    await skipOptionalSetupSteps(page)
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor()

    // Invite someone as an assessee and copy the link, shown once.
    await openAdministration(page, 'Invites')
    await page.getByRole('button', { name: 'Create invite' }).click()
    const inviteDialog = page.getByRole('dialog', { name: 'Invite someone' })
    await inviteDialog.getByRole('combobox', { name: 'Role' }).click({ force: true })
    await page.getByRole('option', { name: 'Assessee', exact: true }).click()
    await inviteDialog.getByRole('button', { name: 'Create invite' }).click()
    const linkDialog = page.getByRole('dialog', { name: 'Invite link' })
    await linkDialog.getByRole('button', { name: 'Copy' }).click()
    await page.getByText('Copied to the clipboard.').waitFor()
    const link = await page.evaluate(() => navigator.clipboard.readText())
    assert.equal(link, await linkDialog.getByLabel('Invite link').inputValue())
    assert.match(link, new RegExp(`^${ADMIN_BASE_URL.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/register\\?invite=.+`))
    await linkDialog.getByRole('button', { name: 'Close', exact: true }).click()
    await page.getByRole('cell', { name: 'Unused' }).waitFor()

    // In another browser, the invitee opens the link, registers and signs in.
    const elsewhere = await context.browser().newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } })
    try {
      const invitee = await elsewhere.newPage()
      invitee.setDefaultTimeout(15_000)
      await invitee.goto(link)
      await invitee.getByRole('heading', { level: 1, name: 'Create your account' }).waitFor()
      assert.equal(await invitee.getByLabel('Invitation').inputValue(), new URL(link).searchParams.get('invite'))
      await fillAccount(invitee.getByRole('form', { name: 'Your account' }), INVITEE)
      await invitee.getByRole('button', { name: 'Create account' }).click()
      await invitee.getByRole('heading', { level: 1, name: 'Registration received' }).waitFor()
      await invitee.getByRole('link', { name: 'Go to sign-in' }).click()
      await waitForPath(invitee, '/login')
      await invitee.getByLabel('Username or e-mail address', { exact: true }).fill(INVITEE.username)
      await invitee.getByLabel('Password', { exact: true }).fill(INVITEE.password)
      await invitee.getByRole('button', { name: 'Sign in' }).click()
      await invitee.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor()
      const inviteeNav = invitee.getByRole('navigation', { name: 'Main navigation' })
      assert.equal(await inviteeNav.getByRole('button', { name: 'Administration' }).count(), 0)

      // The administrator creates the custom role "auditor" with the audit permission…
      await openAdministration(page, 'Roles')
      await page.getByRole('button', { name: 'New custom role' }).click()
      const roleForm = page.getByRole('form', { name: 'New custom role' })
      await roleForm.getByLabel('Name', { exact: true }).fill('auditor')
      await roleForm.getByLabel('Description', { exact: true }).fill('Reads the audit log')
      // Element Plus hides the native checkbox behind its styled box; click the label.
      await roleForm.locator('label').filter({ hasText: 'admin.audit' }).click()
      assert.equal(await roleForm.getByRole('checkbox', { name: /admin\.audit/ }).isChecked(), true)
      await page.getByRole('button', { name: 'Create role' }).click()
      await page.getByText('Role auditor has been created.').waitFor()

      // …and gives it to the new user.
      await openAdministration(page, 'Users')
      await page.getByRole('button', { name: `Edit user ${INVITEE.username}` }).click()
      const drawer = page.getByRole('dialog', { name: 'Edit user' })
      await drawer.getByRole('combobox', { name: 'Roles' }).click({ force: true })
      await page.getByRole('option', { name: 'auditor', exact: true }).click()
      await drawer.getByRole('button', { name: 'Save' }).click()
      await page.getByText(`The changes to ${INVITEE.username} have been saved.`).waitFor()
      await page.getByRole('row', { name: new RegExp(INVITEE.username) }).getByText('auditor').waitFor()

      // The invitee's next page load shows the audit log, without signing in again.
      await invitee.reload()
      await inviteeNav.getByRole('button', { name: 'Administration' }).click()
      const items = invitee.getByRole('menuitem')
      await items.first().waitFor()
      assert.deepEqual(await items.allInnerTexts().then((texts) => texts.map((text) => text.trim())), ['Audit log'])
      await items.first().click()
      await waitForPath(invitee, '/admin/audit')
      await invitee.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor()
      await invitee.getByRole('cell', { name: 'user.registered' }).first().waitFor()

      // At 1366 px every time shows whole, and people go by name: filtered by the
      // administrator's username, the log shows only their rows, under their name.
      await invitee.setViewportSize({ width: 1366, height: 768 })
      const cutTimes = await invitee
        .locator('.audit-time')
        .evaluateAll((times) => times.map((time) => time.closest('.cell')).filter((cell) => cell.scrollWidth > cell.clientWidth).length)
      assert.equal(cutTimes, 0, 'no time is cut off')
      await invitee.getByRole('textbox', { name: 'Actor (username or ID)' }).fill(ADMIN.username)
      const actors = invitee.locator('[data-test="audit-actor"]')
      await actors.filter({ hasNotText: ADMIN.displayName }).first().waitFor({ state: 'detached' })
      await actors.first().waitFor()
      assert.deepEqual([...new Set(await actors.allInnerTexts())], [ADMIN.displayName])
    } finally {
      await elsewhere.close()
    }
  },
  { timeout: 90_000, skip },
)

// The events and deliveries journeys and the phone journey continue on the installation
// set up above; test files run in parallel, so they are declared here, after it.
notificationJourneys({ admin: ADMIN, skip })
mobileJourneys({ admin: ADMIN, skip })
