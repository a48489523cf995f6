// The catalogue journeys of entities and projects, on the catalogue server
// (CATALOGUE_BASE_URL, whose standards feed is a loopback copy of the public one):
// an entity's relationship graph renders, and a project created in the UI lists the
// standard it was given. Records are made through the API with the administrator's
// browser session (same origin, so the server accepts the writes) and named with a
// per-run suffix, so the journeys do not depend on what other journey files create
// on the same server. They use 3 of the server's 10 sign-in attempts per address in
// 15 minutes (the phone journey of the list pages, from mobile.journeys.mjs, one of them).
// The project journey goes on to the global search (Ctrl-K), in the same sign-in.
import assert from 'node:assert/strict'
import { catalogueListJourneys } from './mobile.journeys.mjs'
import { CATALOGUE_ADMIN, CATALOGUE_BASE_URL, ensureSetUp, journey, pathOf, signIn, waitForPath } from './support.mjs'

const skip = CATALOGUE_BASE_URL ? false : 'CATALOGUE_BASE_URL is not set'
const RUN = Date.now().toString(36)

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

async function signInAsAdmin(page) {
  await ensureSetUp(CATALOGUE_BASE_URL, CATALOGUE_ADMIN)
  await signIn(page, CATALOGUE_BASE_URL, CATALOGUE_ADMIN)
}

journey(
  "an entity's graph of five entities renders, drawn and written out as a list",
  async ({ page }) => {
    await signInAsAdmin(page)
    const names = ['Holding', 'Digital', 'Platform', 'Checkout', 'Card Gateway'].map((name) => `${name} ${RUN}`)
    const types = ['organization', 'business_unit', 'team', 'product', 'service']
    const ids = []
    for (const [index, name] of names.entries()) {
      ids.push((await callApi(page, 'POST', '/api/v1/entities', { name, type: types[index] })).id)
    }
    // Holding owns Digital, Digital contains Platform, Platform owns Checkout, Checkout depends on Card Gateway.
    const edges = [
      [0, 1, 'owns'],
      [1, 2, 'contains'],
      [2, 3, 'owns'],
      [3, 4, 'depends_on'],
    ]
    for (const [from, to, type] of edges) {
      await callApi(page, 'POST', `/api/v1/entities/${ids[from]}/relationships`, { targetId: ids[to], type })
    }

    // Find the middle entity in the list and open its graph (depth 3, both directions, reaches all five).
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Entities' }).click()
    await page.getByRole('heading', { level: 1, name: 'Entities' }).waitFor()
    await page.getByRole('textbox', { name: 'Search by name or description' }).fill(names[2])
    await page.getByRole('link', { name: names[2], exact: true }).click()
    await waitForPath(page, `/entities/${ids[2]}`)
    await page.getByRole('heading', { level: 1, name: names[2] }).waitFor()
    await page.getByRole('tab', { name: 'Graph' }).click()

    const graph = page.locator('[data-test="entity-graph-panel"]')
    await graph.locator('[data-test="graph-canvas"] canvas').first().waitFor()
    const canvas = await graph.locator('[data-test="graph-canvas"]').boundingBox()
    assert.ok(canvas && canvas.width > 200 && canvas.height > 200, 'the graph is drawn on a canvas of some size')
    const summary = await graph.locator('[data-test="graph-canvas"]').getAttribute('aria-label')
    assert.match(summary, /5 entities and 4 relationships/)

    const list = graph.locator('[data-test="graph-edge-list"]')
    assert.equal(await list.locator('[data-test="graph-edge"]').count(), 4)
    const text = await list.textContent()
    for (const name of names) assert.ok(text.includes(name), `the edge list names ${name}`)
    assert.ok(text.includes(`${names[3]} depends on ${names[4]}`), 'an edge reads as a sentence')

    // Selecting an entity in the list opens it.
    await graph.getByRole('button', { name: 'Show as list' }).click()
    await list.getByRole('button', { name: names[4], exact: true }).click()
    await waitForPath(page, `/entities/${ids[4]}`)
    await page.getByRole('heading', { level: 1, name: names[4] }).waitFor()
  },
  { skip, timeout: 90_000 },
)

journey(
  'a project created in the UI lists the published standard it assesses against',
  async ({ page }) => {
    await signInAsAdmin(page)
    // A published standard: OWASP SCVS from the (loopback) standards feed; already imported is fine.
    const feed = await callApi(page, 'GET', '/api/v1/standards/feed')
    const item = (feed.items ?? []).find((entry) => /scvs/i.test(entry.id))
    assert.ok(item, 'the feed lists OWASP SCVS')
    const imported = await callApi(page, 'POST', '/api/v1/standards/feed/import', { itemId: item.id })
    const standard = imported.standards[0]
    assert.ok(standard?.id, 'the import names the standard')
    const label = standard.standardVersion ? `${standard.name} ${standard.standardVersion}` : standard.name

    const name = `Supply chain review ${RUN}`
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Projects' }).click()
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor()
    await page.getByRole('button', { name: 'New project' }).click()
    const dialog = page.getByRole('dialog', { name: 'New project' })
    await dialog.getByRole('textbox', { name: 'Name' }).fill(name)
    await dialog.getByRole('combobox', { name: 'Standards' }).click({ force: true })
    await page.getByRole('option', { name: label, exact: true }).click()
    await dialog.getByRole('heading', { name: 'New project' }).click() // close the dropdown
    await dialog.getByRole('button', { name: 'Create', exact: true }).click()

    await page.getByRole('heading', { level: 1, name }).waitFor()
    assert.match(pathOf(page), /^\/projects\/pr_/)
    const standards = page.locator('[data-test="project-standards"]')
    const link = standards.getByRole('link', { name: label, exact: true })
    await link.waitFor()
    assert.equal(await link.getAttribute('href'), `/standards/${standard.id}`)
    // The project is in the list, too, with its one standard.
    await page.getByRole('link', { name: 'Projects', exact: true }).first().click()
    await page.getByRole('textbox', { name: 'Search by name or description' }).fill(name)
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) })
    await row.getByText('one standard').waitFor()

    // Ctrl-K finds a requirement of the standard by its identifier; the arrow keys reach it
    // and Enter opens it on its standard's page, in the requirement drawer.
    const requirements = await callApi(page, 'GET', `/api/v1/standards/${standard.id}/requirements?limit=20`)
    const requirement = requirements.items.find((r) => r.name) ?? requirements.items[0]
    assert.ok(requirement, 'the standard has requirements')
    await page.keyboard.press('Control+k')
    const search = page.getByRole('dialog', { name: 'Search' })
    const box = search.getByPlaceholder('Search standards, requirements, assessments, evidence…')
    // The box has the focus once the dialog is open: one types straight away.
    await page.waitForFunction(() => globalThis.document.activeElement?.getAttribute('placeholder')?.startsWith('Search standards'))
    await page.keyboard.type(requirement.identifier)
    assert.equal(await box.inputValue(), requirement.identifier)
    const target = `/standards/${standard.id}?requirement=${requirement.id}`
    const hit = search.locator(`[data-test="search-hit"][href="${target}"]`)
    await hit.waitFor()
    const links = await search.locator('[data-test="search-hit"]').evaluateAll((hits) => hits.map((h) => h.getAttribute('href')))
    for (let i = 0; i < links.indexOf(target); i++) await box.press('ArrowDown')
    assert.equal(await hit.getAttribute('aria-selected'), 'true', 'the arrow keys reach the hit')
    await box.press('Enter')
    await waitForPath(page, `/standards/${standard.id}`)
    const drawer = page.locator('[data-test="requirement-drawer"]')
    await drawer.getByText(requirement.identifier, { exact: false }).first().waitFor()
    await search.waitFor({ state: 'hidden' })
  },
  { skip, timeout: 90_000 },
)

catalogueListJourneys({ run: RUN, skip })
