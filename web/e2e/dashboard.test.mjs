// The journey of the dashboard's layout (issue 25 item 1; docs/assessments.md, "Dashboard
// layout"), on the catalogue server (CATALOGUE_BASE_URL): an assessor sees their role's
// default, arranges the dashboard — removes a widget, adds one, drags one to the top, resizes
// one from the keyboard — saves, reloads and finds it kept; at phone width the widgets stand in
// one column; "Reset to default" brings the role's default back.
//
// It signs in twice on that server (the administrator through the API to create the assessor,
// the assessor in the browser), within the sign-in limit the catalogue journeys share.
import assert from 'node:assert/strict'
import { CATALOGUE_ADMIN, CATALOGUE_BASE_URL, catalogueUrl, ensureSetUp, journey, signIn } from './support.mjs'

const skip = CATALOGUE_BASE_URL ? false : 'CATALOGUE_BASE_URL is not set'

// The assessor: unique per run, so the journey can run again on the same server.
const RUN = Date.now().toString(36)
const ASSESSOR = {
  username: `layout-${RUN}`,
  email: `layout-${RUN}@example.com`,
  displayName: 'Lee Layout',
  password: 'layout journey passphrase 1',
  roles: ['assessor'],
}

async function createAssessor() {
  await ensureSetUp(CATALOGUE_BASE_URL, CATALOGUE_ADMIN)
  const call = (cookie, path, body) =>
    fetch(catalogueUrl(path), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: CATALOGUE_BASE_URL, ...(cookie ? { Cookie: cookie } : {}) },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    })
  const login = await call(null, '/api/v1/auth/login', { username: CATALOGUE_ADMIN.username, password: CATALOGUE_ADMIN.password })
  assert.equal(login.status, 200, `the administrator's sign-in answered ${login.status}`)
  const cookie = login.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ')
  const created = await call(cookie, '/api/v1/users', ASSESSOR)
  assert.equal(created.status, 201, `creating the assessor answered ${created.status}: ${await created.text()}`)
}

// layoutOf reads the signed-in user's layout through the page's session.
async function layoutOf(page) {
  const answer = await page.request.get(catalogueUrl('/api/v1/me/dashboard-layout'))
  assert.equal(answer.status(), 200)
  return answer.json()
}

// shown is the widgets the page shows, in the page's order (reading order).
 
const shown = (page) => page.locator('[data-widget]').evaluateAll((tiles) => tiles.map((t) => t.dataset.widget))

// placement is where each tile stands on the grid, as the page draws it.
const placement = (page) =>
  page
    .locator('[data-widget]')
     
    .evaluateAll((tiles) => Object.fromEntries(tiles.map((t) => [t.dataset.widget, `${t.style.gridColumn} | ${t.style.gridRow}`])))

const expectedPlacement = (widgets) => Object.fromEntries(widgets.map((t) => [t.widget, `${t.x + 1} / span ${t.w} | ${t.y + 1} / span ${t.h}`]))

async function waitForTiles(page) {
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor()
  await page.locator('[data-widget]').first().waitFor()
}

journey(
  'an assessor arranges the dashboard, it is kept across a reload and at phone width, and reset brings the default back',
  async ({ page }) => {
    await createAssessor()
    await signIn(page, CATALOGUE_BASE_URL, ASSESSOR)
    await waitForTiles(page)

    // The assessor's default, as the server defines it, is what the page shows.
    const start = await layoutOf(page)
    assert.equal(start.isDefault, true)
    assert.equal(start.defaultRole, 'assessor')
    assert.deepEqual(await shown(page), start.widgets.map((t) => t.widget))
    assert.deepEqual(await placement(page), expectedPlacement(start.widgets))
    assert.ok((await shown(page)).includes('sealedAttestations'))
    assert.ok(!(await shown(page)).includes('health'))

    await page.getByRole('button', { name: 'Customize' }).click()
    await page.getByText('The default layout of your role').waitFor()

    // Remove one widget, add another.
    await page.getByRole('button', { name: 'Remove Sealed attestations' }).click()
    await page.locator('[data-widget="sealedAttestations"]').waitFor({ state: 'detached' })
    await page.getByRole('button', { name: 'Add widget' }).click()
    await page.getByRole('menuitem', { name: 'System status' }).click()
    const health = page.locator('[data-widget="health"]')
    await health.waitFor()

    // Drag the system status by its bar to the top left corner of the grid.
    await health.locator('.dash-tile__name').scrollIntoViewIfNeeded()
    const from = await health.locator('.dash-tile__name').boundingBox()
    assert.ok(from)
    const gridNow = await page.locator('[data-test="dashboard-grid"]').boundingBox()
    assert.ok(gridNow)
    await page.mouse.move(from.x + 10, from.y + from.height / 2)
    await page.mouse.down()
    const target = { x: gridNow.x + 40, y: gridNow.y + 12 }
    await page.mouse.move((from.x + target.x) / 2, (from.y + target.y) / 2, { steps: 5 })
    await page.mouse.move(target.x, target.y, { steps: 5 })
    await page.mouse.up()
    await page.waitForFunction(() => {
      // eslint-disable-next-line no-undef -- runs in the browser
      const tile = document.querySelector('[data-widget]')
      return tile?.getAttribute('data-widget') === 'health' && tile.style.gridColumn.startsWith('1 /') && tile.style.gridRow.startsWith('1 /')
    })

    // Resize a chart from the keyboard: focus its move handle, Shift+Arrow Down twice.
    const handle = page.getByRole('button', { name: 'Move Assessments by state', exact: true })
    await handle.focus()
    const before = await page.locator('[data-widget="assessmentPipeline"]').evaluate((t) => t.style.gridRow)
    await page.keyboard.press('Shift+ArrowDown')
    await page.keyboard.press('Shift+ArrowDown')
    const rows = Number(/span (\d+)/.exec(before)?.[1])
    await page.waitForFunction(
      // eslint-disable-next-line no-undef -- runs in the browser
      (want) => document.querySelector('[data-widget="assessmentPipeline"]')?.style.gridRow.endsWith(`span ${want}`),
      rows + 2,
    )
    assert.equal(await handle.evaluate((el) => el === el.ownerDocument.activeElement), true, 'the focus stays on the handle')
    await page.getByText(`Assessments by state: column`).waitFor({ state: 'attached' })

    // And move one from the tile's menu.
    await page.getByRole('button', { name: 'Arrange Overdue assessments' }).click()
    await page.getByRole('menuitem', { name: 'Move right' }).click()

    const arranged = await placement(page)
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByRole('button', { name: 'Customize' }).waitFor()
    const saved = await layoutOf(page)
    assert.equal(saved.isDefault, false)
    assert.deepEqual(expectedPlacement(saved.widgets), arranged, 'the server keeps what the page showed')
    assert.ok(!saved.widgets.some((t) => t.widget === 'sealedAttestations'))
    assert.deepEqual(saved.widgets[0], { widget: 'health', x: 0, y: 0, w: 6, h: 7 })

    // Reload: the layout is kept.
    await page.reload()
    await waitForTiles(page)
    assert.deepEqual(await placement(page), arranged)
    assert.deepEqual(await shown(page), saved.widgets.map((t) => t.widget))

    // At phone width the widgets stand in one column, in the same order, nothing wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 })
    await page.reload()
    await waitForTiles(page)
    await page.locator('.dash-grid--stack').waitFor()
    assert.deepEqual(await shown(page), saved.widgets.map((t) => t.widget))
    const boxes = await page
      .locator('[data-widget]')
       
      .evaluateAll((tiles) => tiles.map((t) => t.getBoundingClientRect()).map((r) => ({ x: r.x, width: r.width, top: r.top, bottom: r.bottom })))
    for (const [i, box] of boxes.entries()) {
      assert.equal(Math.round(box.x), Math.round(boxes[0].x), 'one column')
      assert.ok(box.width > 300, `full width (${box.width})`)
      if (i > 0) assert.ok(box.top >= boxes[i - 1].bottom, 'one under another')
    }
    // eslint-disable-next-line no-undef -- runs in the browser
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling')
    // Arranging on a phone: the menus, no drag handles.
    await page.getByRole('button', { name: 'Customize' }).click()
    await page.getByRole('button', { name: 'Arrange System status' }).waitFor()
    assert.equal(await page.locator('[data-move]').count(), 0)
    await page.getByRole('button', { name: 'Cancel' }).click()

    // Reset to default, after confirming.
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.getByRole('button', { name: 'Customize' }).click()
    await page.getByRole('button', { name: 'Reset to default' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Reset to default' }).click()
    await page.getByRole('button', { name: 'Customize' }).waitFor()
    const reset = await layoutOf(page)
    assert.equal(reset.isDefault, true)
    assert.deepEqual(reset.widgets, start.widgets)
    await page.reload()
    await waitForTiles(page)
    assert.deepEqual(await placement(page), expectedPlacement(start.widgets))
  },
  { skip, timeout: 120_000 },
)
