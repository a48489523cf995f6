// The phone journeys: at 390×844 the header has no room for the main navigation, so a
// menu button opens a drawer with all of it, the Administration pages included (and,
// wider, the header holds it all without scrolling); and the
// catalogue's list pages (standards, entities, projects) show cards and a Filters button,
// as the assessments and evidence lists do (issue 26 item 9).
//
// It runs on the administration journeys' server (ADMIN_BASE_URL, REGISTRATION_MODE=
// invite_only), after the journeys of administration.test.mjs, which declares it: test
// files run in parallel, and it needs the installation those set up (it sets it up
// through the API itself should they have failed first). It uses 1 of the server's 10
// sign-in writes per address in 15 minutes.
import assert from 'node:assert/strict'
import { ADMIN_BASE_URL, adminUrl, CATALOGUE_ADMIN, CATALOGUE_BASE_URL, catalogueUrl, ensureSetUp, journey, signIn, waitForPath } from './support.mjs'

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

      // Wider, the header navigation holds every entry without scrolling, in both
      // languages: from 1,280 px (the entries tighten, the brand keeps its mark), at 1,440
      // (the tools lose their words, the language shows by its code) and from 2,000 (icons
      // and words). At 1,366 and 1,701 the Administration entry used to be scrolled away.
      // Below 1,280 the menu button keeps the navigation (at 1,101–1,279 px the header's
      // list used to scroll its last entries out of sight).
      for (const locale of ['de', 'en']) {
        await page.evaluate((l) => localStorage.setItem('assay.locale', l), locale)
        for (const width of [1101, 1279]) {
          await page.setViewportSize({ width, height: 800 })
          await page.reload()
          await page.locator('.mobile-nav__toggle').waitFor()
          assert.equal(await page.locator('.app-nav').isVisible(), false, `${locale} at ${width} px: the menu button holds the navigation`)
          assert.equal(await overflowsSideways(page), false, `${locale} at ${width} px: the page fits the screen`)
        }
        for (const width of [1280, 1366, 1440, 1701, 1881, 1999, 2000]) {
          await page.setViewportSize({ width, height: 800 })
          await page.reload()
          const nav = page.locator('.app-nav')
          await nav.waitFor()
          const { scroll, client } = await nav.evaluate((n) => ({ scroll: n.scrollWidth, client: n.clientWidth }))
          assert.ok(scroll <= client, `${locale} at ${width} px: the navigation needs ${scroll} px and has ${client}`)
        }
      }
      await page.evaluate(() => localStorage.setItem('assay.locale', 'en'))
    },
    { timeout: 90_000, viewport: PHONE, skip },
  )
}

// callApi calls the API from the page, with its session cookie; it fails on an error status.
async function callApi(page, method, path, body) {
  const answer = await page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      return { status: response.status, body: await response.text() }
    },
    { method, path, body },
  )
  assert.ok(answer.status < 300, `${method} ${path} answered ${answer.status}: ${answer.body}`)
  return answer.body ? JSON.parse(answer.body) : null
}

/**
 * catalogueListJourneys declares the journey of the catalogue's list pages on a phone, on
 * the catalogue server (CATALOGUE_BASE_URL; catalogue.test.mjs declares it). It makes a
 * draft standard, an entity and a project named with `run`, and uses 1 of the server's 10
 * sign-in attempts per address in 15 minutes.
 */
export function catalogueListJourneys({ run, skip }) {
  journey(
    'on a phone, the standards, entities and projects lists show cards, with the filters behind a button',
    async ({ page }) => {
      await ensureSetUp(CATALOGUE_BASE_URL, CATALOGUE_ADMIN)
      await signIn(page, CATALOGUE_BASE_URL, CATALOGUE_ADMIN)
      const names = { standards: `Phone handbook ${run}`, entities: `Phone service ${run}`, projects: `Phone project ${run}` }
      await callApi(page, 'POST', '/api/v1/standards', { identifier: `phone-handbook-${run}`, standardVersion: '1.0', name: names.standards, owner: 'A rather long owner name, Inc.' })
      await callApi(page, 'POST', '/api/v1/entities', { name: names.entities, type: 'service', description: 'A service with a description long enough to need more than one line on a phone.' })
      await callApi(page, 'POST', '/api/v1/projects', { name: names.projects, dueDate: '2030-01-31' })

      const pages = [
        { path: '/standards', heading: 'Standards', search: 'Search by name, identifier or description', cards: 'standards-cards' },
        { path: '/entities', heading: 'Entities', search: 'Search by name or description', cards: 'entity-cards' },
        { path: '/projects', heading: 'Projects', search: 'Search by name or description', cards: 'project-cards' },
      ]
      for (const { path, heading, search, cards } of pages) {
        await page.goto(catalogueUrl(path))
        await page.getByRole('heading', { level: 1, name: heading }).waitFor()
        // The search box stays; the other filters hide behind "Filters" until it is pressed.
        const toggle = page.locator('[data-test="filters-toggle"]')
        await toggle.waitFor()
        const panel = page.locator('[data-test="filters-panel"]')
        assert.equal(await panel.isVisible(), false, `${path}: the filters are folded away`)
        await toggle.click()
        await panel.waitFor()
        assert.equal(await toggle.getAttribute('aria-expanded'), 'true')
        await toggle.click()
        await panel.waitFor({ state: 'hidden' })

        await page.getByRole('textbox', { name: search }).fill(names[path.slice(1)])
        const list = page.locator(`[data-test="${cards}"]`)
        const card = list.getByRole('listitem').filter({ hasText: names[path.slice(1)] })
        await card.waitFor()
        assert.equal(await page.locator('.el-table').count(), 0, `${path}: no table on a phone`)
        const box = await card.boundingBox()
        assert.ok(box && box.x >= 0 && box.x + box.width <= PHONE.width, `${path}: the card fits the screen (${box?.x}+${box?.width})`)
        assert.equal(await overflowsSideways(page), false, `${path}: the page fits the screen`)
      }
    },
    { timeout: 90_000, viewport: PHONE, skip },
  )
}
