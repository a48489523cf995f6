// The journeys of progress over time and the portfolio (issue 25 item 2), on the
// assessment-work server (WORK_BASE_URL):
//
// 1. Two assessments of an entity against a small standard are completed through the API
//    (scores 50 and 83.33); the entity's Progress tab draws its score over time and, as a
//    table, lists both points with their scores and links; the portfolio of the project
//    shows the entity's cell, whose tooltip names the latest assessment, and a click on the
//    cell opens that assessment.
// 2. On a phone (390 px) in dark mode, the portfolio scrolls sideways inside its card rather
//    than widening the page, and its table view links each cell to its assessment.
//
// The standard is a CycloneDX document of three requirements made per run (no download); people
// and records carry a per-run suffix, so the file runs again on the same server. Sign-ins per
// run (the server allows 10 per address in 15 minutes): at most one API sign-in of the
// administrator (none when this file sets the server up); the browser gets that session as a
// cookie.
import assert from 'node:assert/strict'
import { journey, pathOf, rationale, WORK_BASE_URL, workAdminSession, workApi } from './support.mjs'

const skip = WORK_BASE_URL ? false : 'WORK_BASE_URL is not set'
const RUN = Date.now().toString(36)
const ENTITY = `Insight shop ${RUN}`
const PHONE = { width: 390, height: 844 }

const adminSession = workAdminSession
const api = workApi

// importStandard imports a standard of three requirements made for this run and returns it.
async function importStandard(cookie) {
  const name = `Insight Journey Standard ${RUN}`
  const document = {
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    version: 1,
    definitions: {
      standards: [
        {
          'bom-ref': 'standard',
          name,
          version: '1.0',
          description: 'Three requirements for the insight journey.',
          requirements: ['Keep an audit log', 'Encrypt data at rest', 'Rotate secrets'].map((title, index) => ({
            'bom-ref': `r${index + 1}`,
            identifier: `IJ-${index + 1}`,
            title,
            text: `${title}.`,
          })),
        },
      ],
    },
  }
  const form = new FormData()
  form.append('file', new Blob([JSON.stringify(document)], { type: 'application/json' }), 'insight-journey.cdx.json')
  await api(cookie, 'POST', '/api/v1/standards/import', form)
  const found = await api(cookie, 'GET', `/api/v1/standards?q=${encodeURIComponent(name)}&limit=10`)
  const standard = found.items.find((item) => item.name === name)
  assert.ok(standard, 'the journey standard is in the catalogue')
  assert.equal(standard.state, 'published')
  return standard
}

// completeAssessment creates an assessment of the entity in the project, starts it, answers its
// three requirements with `results` and completes it.
async function completeAssessment(cookie, { entity, project, standard }, title, results) {
  let assessment = await api(cookie, 'POST', '/api/v1/assessments', {
    title,
    entityId: entity.id,
    projectId: project.id,
    standards: [{ standardId: standard.id }],
    completionEvidence: 'none',
  })
  assessment = await api(cookie, 'POST', `/api/v1/assessments/${assessment.id}/start`, { version: assessment.version })
  const requirements = (await api(cookie, 'GET', `/api/v1/assessments/${assessment.id}/requirements`)).items
  assert.equal(requirements.length, results.length)
  const items = requirements.map((r, index) => ({ id: r.id, result: results[index], rationale: rationale(r.identifier) }))
  await api(cookie, 'POST', `/api/v1/assessments/${assessment.id}/requirements/bulk`, { items })
  assessment = await api(cookie, 'GET', `/api/v1/assessments/${assessment.id}`)
  assessment = await api(cookie, 'POST', `/api/v1/assessments/${assessment.id}/complete`, { version: assessment.version })
  assert.equal(assessment.state, 'complete')
  return assessment
}

let fixture = null
// ensureFixture prepares the server once per run: the administrator's session, the standard,
// the entity and its project, and two completed assessments of the entity (50, then 83.33).
function ensureFixture() {
  fixture ??= (async () => {
    const cookie = await adminSession()
    const standard = await importStandard(cookie)
    const entity = await api(cookie, 'POST', '/api/v1/entities', { name: ENTITY, type: 'product' })
    const project = await api(cookie, 'POST', '/api/v1/projects', { name: `Insight programme ${RUN}`, entityIds: [entity.id], standardIds: [standard.id] })
    const records = { entity, project, standard }
    const first = await completeAssessment(cookie, records, `First insight review ${RUN}`, ['yes', 'partial', 'no'])
    const second = await completeAssessment(cookie, records, `Second insight review ${RUN}`, ['yes', 'yes', 'partial'])
    assert.deepEqual([first.conformanceScore, second.conformanceScore], [50, 83.33])
    return { cookie, ...records, first, second }
  })()
  return fixture
}

// asAdministrator gives the browser the administrator's session, so it needs no sign-in page.
async function asAdministrator(context, cookie) {
  const cookies = cookie.split('; ').map((pair) => {
    const at = pair.indexOf('=')
    return { name: pair.slice(0, at), value: pair.slice(at + 1), url: WORK_BASE_URL }
  })
  await context.addCookies(cookies)
}

// clickHeatmapCell hovers the heat map's canvas until the tooltip names `text`, then clicks
// there: the heat map is drawn on a canvas, so its cells have no element of their own.
async function clickHeatmapCell(page, text) {
  const canvas = page.locator('[data-test="portfolio-heatmap"] canvas').first()
  await canvas.waitFor()
  const box = await canvas.boundingBox()
  for (const [fx, fy] of [[0.75, 0.45], [0.7, 0.35], [0.8, 0.55], [0.65, 0.4], [0.85, 0.3]]) {
    const x = box.x + box.width * fx
    const y = box.y + box.height * fy
    await page.mouse.move(x, y)
    // waitFor, not isVisible: isVisible answers at once (its timeout is ignored), before the
    // chart has drawn the tooltip of the cell under the pointer on a busy machine.
    const tip = page.getByText(text, { exact: false }).first()
    const shown = await tip.waitFor({ state: 'visible', timeout: 1_500 }).then(
      () => true,
      () => false,
    )
    if (shown) {
      await page.mouse.click(x, y)
      return
    }
  }
  throw new Error(`no cell of the heat map shows "${text}"`)
}

journey(
  "an entity's completed assessments are points of its score history, and the portfolio's cell opens the latest",
  async ({ page, context }) => {
    const { cookie, entity, project, standard, first, second } = await ensureFixture()
    await asAdministrator(context, cookie)

    // The entity's Progress tab: the chart, then the same points as a table.
    await page.goto(`${WORK_BASE_URL}/entities/${entity.id}`)
    await page.getByRole('heading', { level: 1, name: ENTITY }).waitFor()
    await page.getByRole('tab', { name: 'Progress' }).click()
    const history = page.locator('[data-test="score-history"]')
    await history.getByRole('heading', { name: 'Score over time' }).waitFor()
    await history.locator('canvas').first().waitFor()
    await history.locator('[data-test="score-history-table-toggle"]').click()
    const table = history.locator('[data-test="score-history-table"]')
    await table.waitFor()
    const rows = await table.locator('.el-table__body tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent.trim())))
    assert.deepEqual(
      rows.map((cells) => cells.slice(1)),
      [
        [`${standard.name} 1.0`, second.title, '83.33 %'],
        [`${standard.name} 1.0`, first.title, '50 %'],
      ],
      'newest first, with their scores',
    )
    assert.equal(await table.getByRole('link', { name: first.title }).getAttribute('href'), `/assessments/${first.id}`)

    // The portfolio, narrowed to the project: one entity, one standard, the latest assessment.
    await page.goto(`${WORK_BASE_URL}/portfolio?project=${project.id}`)
    await page.getByRole('heading', { level: 1, name: 'Portfolio' }).waitFor()
    await page.locator('[data-test="portfolio-range"]').getByText('Entities 1–1 of 1').waitFor()
    await clickHeatmapCell(page, `${ENTITY}: ${second.title}, 83.33 %`)
    await page.waitForURL((current) => current.pathname === `/assessments/${second.id}`)
    await page.getByRole('heading', { level: 1, name: second.title }).waitFor()

    // The same heat map on the project's page.
    await page.goto(`${WORK_BASE_URL}/projects/${project.id}`)
    const panel = page.locator('[data-test="project-portfolio"]')
    await panel.getByRole('heading', { name: 'Portfolio of the project' }).waitFor()
    await panel.locator('[data-test="portfolio-heatmap"] canvas').first().waitFor()
  },
  { skip, timeout: 120_000 },
)

journey(
  'on a phone in dark mode the portfolio scrolls inside its card and its table links each cell',
  async ({ page, context }) => {
    const { cookie, project, second } = await ensureFixture()
    await asAdministrator(context, cookie)
    await page.goto(`${WORK_BASE_URL}/portfolio?project=${project.id}`)
    await page.getByRole('heading', { level: 1, name: 'Portfolio' }).waitFor()
    assert.ok(await page.locator('html').evaluate((html) => html.classList.contains('dark')), 'dark from the system')
    await page.locator('[data-test="portfolio-heatmap"] canvas').first().waitFor()
    const overflows = await page.locator('html').evaluate((html) => html.scrollWidth > html.ownerDocument.defaultView.innerWidth)
    assert.equal(overflows, false, 'the page is no wider than the phone')
    await page.locator('[data-test="portfolio-table-toggle"]').click()
    const cell = page.locator('[data-test="portfolio-table"] .el-table__body [data-test="portfolio-cell"]').first()
    await cell.waitFor()
    assert.equal(await cell.getAttribute('href'), `/assessments/${second.id}`)
    assert.equal((await cell.textContent()).trim(), '83.33 %')
    await cell.click()
    await page.waitForURL((current) => current.pathname === `/assessments/${second.id}`)
    assert.equal(pathOf(page), `/assessments/${second.id}`)
  },
  { skip, timeout: 120_000, viewport: PHONE, colorScheme: 'dark' },
)
