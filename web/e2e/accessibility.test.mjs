// Accessibility of the main pages, audited by axe-core (the WCAG 2.0 and 2.1 A and AA rules),
// on the catalogue server (CATALOGUE_BASE_URL), which the other journeys fill with standards,
// entities, projects and assessments: the sign-in, password reset and registration pages, then
// every page of the navigation and the pages of a standard, an entity and an assessment (its
// timeline too) as its administrator, on a desktop in the light theme and on a phone (390 px)
// in the dark one. A page passes with no violation axe rates serious or critical (contrast,
// names, labels, roles); the minor and moderate ones are printed, not failed. A third journey
// opens what is drawn over a page — the create dialogs, the global search with hits, the
// account menu and, on a phone, the menu drawer — and audits each open.
//
// axe-core is evaluated in the page through the browser's protocol, which the server's
// Content-Security-Policy (no inline scripts) does not govern; the journey still fails on any
// CSP report of the page itself. Sign-ins per run (the server allows 10 per address in 15
// minutes): one, through the API; the browser gets that session as a cookie.
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { CATALOGUE_ADMIN, CATALOGUE_BASE_URL, ensureSetUp, journey } from './support.mjs'

const skip = CATALOGUE_BASE_URL ? false : 'CATALOGUE_BASE_URL is not set'
const PHONE = { width: 390, height: 844 }
const AXE_SOURCE = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

// PAGES are the pages every user reaches from the navigation, and the administrator's.
const PAGES = [
  '/',
  '/assessments',
  '/evidence',
  '/standards',
  '/entities',
  '/projects',
  '/portfolio',
  '/attestations',
  '/attestations/verify',
  '/notifications',
  '/profile',
  '/search?q=security',
  '/admin/users',
  '/admin/roles',
  '/admin/audit',
  '/admin/tags',
]

let session
// administratorSession signs the catalogue's administrator in once per run (setting the server
// up if no journey has yet) and returns the session cookie.
function administratorSession() {
  session ??= (async () => {
    await ensureSetUp(CATALOGUE_BASE_URL, CATALOGUE_ADMIN)
    const login = await fetch(`${CATALOGUE_BASE_URL}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: CATALOGUE_ADMIN.username, password: CATALOGUE_ADMIN.password }),
      signal: AbortSignal.timeout(20_000),
    })
    assert.equal(login.status, 200, `the administrator's sign-in answered ${login.status}`)
    return login.headers.getSetCookie().map((line) => line.split(';')[0])
  })()
  return session
}

// asAdministrator gives the browser the administrator's session and returns the cookie header.
async function asAdministrator(context) {
  const pairs = await administratorSession()
  await context.addCookies(
    pairs.map((pair) => {
      const at = pair.indexOf('=')
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url: CATALOGUE_BASE_URL }
    }),
  )
  return pairs.join('; ')
}

// recordPaths are the pages of the first standard, entity and assessment of the server (its
// requirements and its timeline), as far as the other journeys have made them.
async function recordPaths(cookie) {
  const first = async (path) => {
    const response = await fetch(`${CATALOGUE_BASE_URL}/api/v1/${path}?limit=1`, {
      headers: { Cookie: cookie },
      signal: AbortSignal.timeout(10_000),
    })
    assert.equal(response.status, 200, `GET /api/v1/${path} answered ${response.status}`)
    return (await response.json()).items[0]
  }
  const [standard, entity, assessment] = [await first('standards'), await first('entities'), await first('assessments')]
  return [
    ...(standard ? [`/standards/${standard.id}`] : []),
    ...(entity ? [`/entities/${entity.id}`] : []),
    ...(assessment ? [`/assessments/${assessment.id}`, `/assessments/${assessment.id}?tab=timeline`] : []),
  ]
}

// audit opens path, waits until it has settled and runs axe-core on it; it answers the
// serious and critical violations, each as one line per element, and prints the others.
async function audit(page, path) {
  await page.goto(`${CATALOGUE_BASE_URL}${path}`)
  await page.locator('h1').first().waitFor()
  await page.waitForLoadState('networkidle')
  await page.evaluate(await AXE_SOURCE)
  const violations = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef -- axe is the global the evaluated source defines
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${(n.failureSummary || '').split('\n').slice(1).join(' ').trim()}`),
    }))
  })
  const failing = []
  for (const v of violations) {
    const lines = v.nodes.map((node) => `${path} [${v.impact}] ${v.id} (${v.help}) at ${node}`)
    if (v.impact === 'serious' || v.impact === 'critical') failing.push(...lines)
    else for (const line of lines) console.log(`accessibility, not failed: ${line}`)
  }
  return failing
}

// auditOpen runs axe-core on the page as it stands (a dialog or menu open over it) and
// answers its serious and critical violations as audit does, labelled with what is open.
async function auditOpen(page, label) {
  await page.evaluate(await AXE_SOURCE)
  const violations = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef -- axe is the global the evaluated source defines
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) }))
  })
  const failing = []
  for (const v of violations) {
    const lines = v.nodes.map((node) => `${label} [${v.impact}] ${v.id} (${v.help}) at ${node}`)
    if (v.impact === 'serious' || v.impact === 'critical') failing.push(...lines)
    else for (const line of lines) console.log(`accessibility, not failed: ${line}`)
  }
  return failing
}

// OVERLAYS are the dialogs and menus the third journey opens: the page, how to open it and
// the dialog or menu that must then be visible.
const OVERLAYS = [
  ...[
    ['/assessments', 'New assessment'],
    ['/evidence', 'New evidence'],
    ['/standards', 'New standard'],
    ['/entities', 'New entity'],
    ['/projects', 'New project'],
    ['/attestations', 'New attestation'],
    ['/admin/tags', 'New tag'],
  ].map(([path, name]) => ({
    path,
    label: `${path}: the dialog "${name}"`,
    open: (page) => page.getByRole('button', { name, exact: true }).first().click(),
    shown: (page) => page.getByRole('dialog', { name }),
  })),
  {
    path: '/admin/users',
    label: '/admin/users: the dialog "Create a user"',
    open: (page) => page.getByRole('button', { name: 'Create user', exact: true }).click(),
    shown: (page) => page.getByRole('dialog', { name: 'Create a user' }),
  },
  {
    path: '/',
    label: 'the global search with results',
    open: async (page) => {
      await page.getByRole('combobox').or(page.getByRole('button', { name: /^Search/ })).first().click()
      await page.getByRole('dialog').getByRole('combobox').fill('security')
    },
    // The catalogue journeys, which run beside this one, import the standards it finds; on a
    // server without them yet the dialog says so, and is audited that way.
    shown: (page) =>
      page.getByRole('dialog').getByRole('option').first().or(page.locator('[data-test="global-search-empty"]')),
  },
  {
    path: '/',
    label: 'the account menu',
    open: (page) => page.getByRole('button', { name: /account menu$/ }).click(),
    shown: (page) => page.getByRole('menu').first(),
  },
]

// auditOverlays opens each overlay over its page, waits for it and audits the whole page.
async function auditOverlays(page, overlays) {
  const failing = []
  for (const overlay of overlays) {
    await page.goto(`${CATALOGUE_BASE_URL}${overlay.path}`)
    await page.locator('h1').first().waitFor()
    await page.waitForLoadState('networkidle')
    await overlay.open(page)
    await overlay.shown(page).waitFor()
    await page.waitForLoadState('networkidle')
    // Element Plus animates a dialog in; axe measures contrast on what is drawn.
    await page.waitForTimeout(400)
    failing.push(...(await auditOpen(page, overlay.label)))
  }
  assert.deepEqual(failing, [], `axe-core found serious or critical violations:\n${failing.join('\n')}`)
}

// auditAll audits every page in paths and fails with every serious or critical violation.
async function auditAll(page, paths) {
  const failing = []
  for (const path of paths) failing.push(...(await audit(page, path)))
  assert.deepEqual(failing, [], `axe-core found serious or critical violations:\n${failing.join('\n')}`)
}

journey(
  'the pages before sign-in and every main page pass axe-core on a desktop in the light theme',
  async ({ page, context }) => {
    await administratorSession() // a fresh server shows the setup wizard instead
    await page.goto(`${CATALOGUE_BASE_URL}/login`)
    await page.getByRole('button', { name: 'Sign in' }).waitFor()
    const failing = []
    for (const path of ['/login', '/forgot-password', '/register']) failing.push(...(await audit(page, path)))
    assert.deepEqual(failing, [], `axe-core found serious or critical violations:\n${failing.join('\n')}`)
    const cookie = await asAdministrator(context)
    await auditAll(page, [...PAGES, ...(await recordPaths(cookie))])
  },
  { skip, timeout: 180_000 },
)

journey(
  'every main page passes axe-core on a phone in the dark theme',
  async ({ page, context }) => {
    const cookie = await asAdministrator(context)
    await auditAll(page, [...PAGES, ...(await recordPaths(cookie))])
  },
  { skip, timeout: 180_000, colorScheme: 'dark', viewport: PHONE },
)

journey(
  'the create dialogs, the global search and the account menu pass axe-core, light on a desktop',
  async ({ page, context }) => {
    await asAdministrator(context)
    await auditOverlays(page, OVERLAYS)
  },
  { skip, timeout: 180_000 },
)

journey(
  'the create dialogs, the global search and the menus pass axe-core, dark on a phone',
  async ({ page, context }) => {
    await asAdministrator(context)
    const drawer = {
      path: '/',
      label: 'the menu drawer',
      open: (page) => page.getByRole('button', { name: 'Open the menu' }).click(),
      shown: (page) => page.getByRole('dialog', { name: 'Menu' }),
    }
    await auditOverlays(page, [...OVERLAYS, drawer])
  },
  { skip, timeout: 180_000, colorScheme: 'dark', viewport: PHONE },
)
