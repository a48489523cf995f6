// The phone journey: at 390×844 the header has no room for the main navigation, so a
// menu button opens a drawer with all of it, the Administration pages included.
//
// It runs on the administration journeys' server (ADMIN_BASE_URL, REGISTRATION_MODE=
// invite_only), after the journeys of administration.test.mjs, which declares it: test
// files run in parallel, and it needs the installation those set up (it sets it up
// through the API itself should they have failed first). It uses 1 of the server's 10
// sign-in writes per address in 15 minutes.
import assert from 'node:assert/strict'
import { ADMIN_BASE_URL, adminUrl, ensureSetUp, journey, signIn, waitForPath } from './support.mjs'

/** PHONE is the viewport of the journey: an iPhone 12–15 in portrait. */
export const PHONE = { width: 390, height: 844 }

// openFromMenu opens a page through the menu drawer and waits for its heading.
async function openFromMenu(page, name) {
  await page.getByRole('button', { name: 'Open the menu' }).click()
  const drawer = page.getByRole('dialog', { name: 'Menu' })
  await drawer.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name, exact: true }).click()
  await page.getByRole('heading', { level: 1, name }).waitFor()
  await drawer.waitFor({ state: 'hidden' })
}

// overflowsSideways reports whether the page is wider than the screen.
function overflowsSideways(page) {
  return page.locator('html').evaluate((html) => html.scrollWidth > html.ownerDocument.defaultView.innerWidth)
}

/**
 * mobileJourneys declares the journey; `admin` is the administrator the administration
 * journey created, `skip` its reason to skip (as node:test takes it).
 */
export function mobileJourneys({ admin, skip }) {
  journey(
    'on a phone, the menu button reaches every page, the administration pages included',
    async ({ page }) => {
      await ensureSetUp(ADMIN_BASE_URL, admin)
      await page.goto(adminUrl('/login'))
      // Only invited people may register here: the sign-in page says so.
      await page.getByText('Have an invitation?').waitFor()
      await signIn(page, ADMIN_BASE_URL, admin)

      // The header navigation gives way to the menu button.
      assert.equal(await page.locator('.app-nav').isVisible(), false)
      assert.equal(await overflowsSideways(page), false, 'the dashboard fits the screen')
      await openFromMenu(page, 'Users')
      await waitForPath(page, '/admin/users')

      await openFromMenu(page, 'Invites')
      await waitForPath(page, '/admin/invites')
      const mode = page.locator('[data-test="registration-mode"]')
      assert.match(await mode.innerText(), /Registration:\s*Invite only/)
      assert.equal(await page.locator('[data-test="registration-disabled"]').count(), 0)

      await openFromMenu(page, 'Dashboard')
      await waitForPath(page, '/')
    },
    { timeout: 60_000, viewport: PHONE, skip },
  )
}
