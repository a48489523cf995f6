// Shared set-up for the browser journeys: one headless Debian Chromium per test
// (never a downloaded browser), a page in English and the light colour scheme,
// a record of Content-Security-Policy violations and uncaught errors, and a
// screenshot in e2e/artifacts/ when a journey fails.
import assert from 'node:assert/strict'
import { mkdir } from 'node:fs/promises'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'

/** BASE_URL is the running Assay server under test; its installation must stay fresh (no user). */
export const BASE_URL = (process.env.BASE_URL || 'http://127.0.0.1:3001').replace(/\/$/, '')

/**
 * SETUP_BASE_URL is a second running Assay server, fresh when the run starts, for
 * the journeys that complete setup (which can happen only once per installation).
 * Empty when unset: those journeys are then skipped.
 */
export const SETUP_BASE_URL = (process.env.SETUP_BASE_URL || '').replace(/\/$/, '')

/**
 * ADMIN_BASE_URL is a third running Assay server, fresh when the run starts and
 * started with REGISTRATION_MODE=invite_only, for the administration journeys
 * (which set it up, invite and register a user, and sign in). Empty when unset:
 * those journeys are then skipped.
 */
export const ADMIN_BASE_URL = (process.env.ADMIN_BASE_URL || '').replace(/\/$/, '')

/**
 * CATALOGUE_BASE_URL is a fourth running Assay server, fresh when the run starts, for the
 * catalogue journeys (standards, entities, projects). Its STANDARDS_FEED_URL points at a
 * loopback copy of the public standards feed (scripts/feed-server.py). Empty when unset:
 * those journeys are then skipped.
 */
export const CATALOGUE_BASE_URL = (process.env.CATALOGUE_BASE_URL || '').replace(/\/$/, '')

/**
 * CATALOGUE_ADMIN is the first administrator of the catalogue server (CATALOGUE_BASE_URL),
 * shared by the catalogue journey files: whichever runs first sets the server up with it.
 */
export const CATALOGUE_ADMIN = Object.freeze({
  username: 'catalogue-admin',
  password: 'catalogue admin passphrase 1',
  email: 'catalogue-admin@example.com',
  displayName: 'Catalogue Admin',
})

/**
 * WORK_BASE_URL is a fifth running Assay server, fresh when the run starts (database
 * storage for evidence files), for the assessment-work journeys. Empty when unset: those
 * journeys are then skipped.
 */
export const WORK_BASE_URL = (process.env.WORK_BASE_URL || '').replace(/\/$/, '')

/** WORK_ADMIN is the first administrator of the assessment-work server (WORK_BASE_URL). */
export const WORK_ADMIN = Object.freeze({
  username: 'work-admin',
  password: 'work admin passphrase 12',
  email: 'work-admin@example.com',
  displayName: 'Work Admin',
})

const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url))

const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** url resolves a path against BASE_URL. */
export function url(path) {
  return BASE_URL + path
}

/** setupUrl resolves a path against SETUP_BASE_URL. */
export function setupUrl(path) {
  return SETUP_BASE_URL + path
}

/** adminUrl resolves a path against ADMIN_BASE_URL. */
export function adminUrl(path) {
  return ADMIN_BASE_URL + path
}

/** catalogueUrl resolves a path against CATALOGUE_BASE_URL. */
export function catalogueUrl(path) {
  return CATALOGUE_BASE_URL + path
}

/** pathOf returns the path of a page's current URL. */
export function pathOf(page) {
  return new URL(page.url()).pathname
}

function slug(name) {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')
}

/**
 * journey declares a browser test. `body` receives `{ page, context, problems }`;
 * `problems` collects CSP violations and uncaught page errors, and the journey
 * fails if any occurred. Options: `timeout` (ms, whole test), `colorScheme`,
 * `viewport` (default 1280×900; a phone is { width: 390, height: 844 }) and `skip`
 * (a reason to skip the journey, as node:test takes it).
 */
export function journey(name, body, options = {}) {
  const { timeout = 60_000, colorScheme = 'light', viewport = { width: 1280, height: 900 }, skip = false } = options
  test(name, { timeout, skip }, async () => {
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: LAUNCH_ARGS,
      headless: true,
      timeout: 30_000,
    })
    try {
      const context = await browser.newContext({
        locale: 'en-US',
        colorScheme,
        viewport,
      })
      const page = await context.newPage()
      page.setDefaultTimeout(15_000)
      page.setDefaultNavigationTimeout(20_000)
      const problems = []
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
      page.on('console', (message) => {
        if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) {
          problems.push(`CSP: ${message.text()}`)
        }
      })
      try {
        await body({ page, context, problems })
        if (problems.length > 0) throw new Error(`problems in the page:\n${problems.join('\n')}`)
      } catch (error) {
        await mkdir(ARTIFACTS, { recursive: true })
        await page
          .screenshot({ path: `${ARTIFACTS}${slug(name)}.png`, fullPage: true, timeout: 5_000 })
          .catch(() => {})
        throw error
      }
    } finally {
      await browser.close()
    }
  })
}

/** waitForPath waits until the page's path (after client-side redirects) is `path`. */
export async function waitForPath(page, path) {
  await page.waitForURL((current) => current.pathname === path)
}

/**
 * ensureSetUp creates the administrator `account` through the API on the server at
 * `baseUrl` unless its setup is complete (the journey that sets it up through the
 * wizard may have failed first).
 */
export async function ensureSetUp(baseUrl, account) {
  const status = await fetch(`${baseUrl}/api/v1/setup/status`, { signal: AbortSignal.timeout(10_000) })
  if ((await status.json()).setupComplete) return
  const created = await fetch(`${baseUrl}/api/v1/setup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(account),
    signal: AbortSignal.timeout(20_000),
  })
  if (created.status === 201) return
  // Journey files run in parallel: another one may have completed setup meanwhile.
  const again = await fetch(`${baseUrl}/api/v1/setup/status`, { signal: AbortSignal.timeout(10_000) })
  if (!(await again.json()).setupComplete) throw new Error(`setup answered ${created.status}`)
}

/**
 * skipOptionalSetupSteps passes the setup wizard's optional steps after the account is
 * created (starter standards, demo data) without taking them, and opens the dashboard.
 */
export async function skipOptionalSetupSteps(page) {
  await page.getByRole('heading', { level: 2, name: 'Starter standards' }).waitFor()
  await page.getByRole('button', { name: 'Skip', exact: true }).click()
  await page.getByRole('heading', { level: 2, name: 'Demo data' }).waitFor()
  await page.getByRole('button', { name: 'Skip', exact: true }).click()
  await page.getByRole('button', { name: 'Go to the dashboard', exact: true }).click()
}

/** signIn signs in through the sign-in page of the server at `baseUrl` and waits for the dashboard. */
export async function signIn(page, baseUrl, account) {
  await page.goto(`${baseUrl}/login`)
  await page.getByLabel('Username or e-mail address', { exact: true }).fill(account.username)
  await page.getByLabel('Password', { exact: true }).fill(account.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor()
}

/** rationale is a rationale of 16 words about topic (the server's minimum is 15). */
export function rationale(topic) {
  return `The ${topic} was checked against the requirement in the code review and in the deployed configuration, notes kept.`
}

const cookieOf = (response) => response.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ')

/**
 * workAdminSession sets the work server up (the answer signs the administrator in) or, when
 * another file did, signs the administrator in through the API; it returns the session cookie.
 */
export async function workAdminSession() {
  const post = (path, body) =>
    fetch(`${WORK_BASE_URL}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    })
  const status = await (await fetch(`${WORK_BASE_URL}/api/v1/setup/status`, { signal: AbortSignal.timeout(10_000) })).json()
  if (!status.setupComplete) {
    const created = await post('/api/v1/setup', WORK_ADMIN)
    if (created.status === 201) return cookieOf(created)
  }
  const login = await post('/api/v1/auth/login', { username: WORK_ADMIN.username, password: WORK_ADMIN.password })
  assert.equal(login.status, 200, `the administrator's sign-in answered ${login.status}`)
  return cookieOf(login)
}

/**
 * workApi calls the work server's API as auth — a session cookie, or { cookie } or { token }
 * (an API key); it fails on an error status.
 */
export async function workApi(auth, method, path, body) {
  const { token, cookie } = typeof auth === 'string' ? { cookie: auth } : auth
  const headers = token ? { Authorization: `Bearer ${token}` } : { Cookie: cookie, Origin: WORK_BASE_URL }
  const form = body instanceof FormData
  if (body !== undefined && !form) headers['Content-Type'] = 'application/json'
  const response = await fetch(`${WORK_BASE_URL}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : form ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  })
  const text = await response.text()
  assert.ok(response.status < 300, `${method} ${path} answered ${response.status}: ${text}`)
  return text ? JSON.parse(text) : null
}
