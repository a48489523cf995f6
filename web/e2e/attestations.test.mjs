// The journeys of attestations, on the assessment-work server (WORK_BASE_URL):
//
// 1. The administrator (every permission) attests a complete assessment prepared through the
//    API: creates the attestation in the UI with an assessor, overrides a score in the map,
//    adds two signatory slots (one reserved for a second user who may sign through a custom
//    role, one open) and signs the open one electronically with the typed name. The second
//    user signs the reserved slot digitally with a key generated in their browser (WebCrypto;
//    the key never leaves the page). The administrator seals, sees every signature valid on
//    the Verification tab, exports the CycloneDX document, and `assay-ctl verify` accepts it
//    offline with the public key set (exit 0); the PDF report downloads (a %PDF- file).
// 2. On a phone (390 px), in German and dark mode, the sealed attestation's page fits the
//    screen; screenshots of it go to e2e/artifacts/ for a look.
// 3. The administrator imports the specification's example attestation (no definitions,
//    placeholder signatures, a dangling counter-claim): checks it first (nothing changes,
//    the repairs and "Not signed" are shown), imports it, lands on the imported attestation
//    (state Imported, the banner saying it was not signed here, no sign or seal actions); the
//    same document again is recognised as imported before.
// 4. The administrator, who keeps no private key, has the service generate an ES256 key it
//    holds (the profile page), then signs a slot of a new attestation with it: the sign
//    dialog offers the held key first and asks for the password again (none, then a wrong
//    one, are refused in the dialog; a wrong one counts as one failed sign-in of the account,
//    reset by its next sign-in). After sealing, the Verification tab shows the held key's
//    signature valid. The server must hold a master encryption key (scripts/test.sh gives the
//    work server one): without it the service refuses to hold keys, and the journey fails
//    saying so.
//
// The data is prepared through the API with the administrator's session: ASVS 4.0.3 imported
// from the repository's standards data (as e2e/assessments.test.mjs does 5.0.0), an entity, a
// started level 1 assessment with evidence and a claim, every result recorded, completed.
// Sign-ins per run (the server allows 10 per address in 15 minutes): at most one API sign-in
// of the administrator (none when this file sets the server up; the browser gets that session
// as a cookie) and one sign-in page for the second user. Confirming the password to sign with
// a held key is not a sign-in and is not counted against the address.
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { journey, pathOf, signIn, rationale, WORK_ADMIN, WORK_BASE_URL, workAdminSession, workApi } from './support.mjs'

const skip = WORK_BASE_URL ? false : 'WORK_BASE_URL is not set'
const RUN = Date.now().toString(36)
const run = promisify(execFile)

const STANDARDS_DATA = process.env.STANDARDS_DATA || fileURLToPath(new URL('../../../shared/data/standards/', import.meta.url))
// ASVS 4.0.3, not 5.0.0: e2e/assessments.test.mjs imports 5.0.0 at the same time, and two
// concurrent imports of one standard may both create it.
const ASVS_FILE = join(STANDARDS_DATA, 'OWASP/ASVS/asvs-4.0.3.cdx.json')
const ASVS = { identifier: 'application-security-verification-standard-asvs', version: '4.0.3' }
/** ASSAY_CTL is the command-line tool scripts/test.sh builds into bin/ beside the server. */
const ASSAY_CTL = process.env.ASSAY_CTL || fileURLToPath(new URL('../../bin/assay-ctl', import.meta.url))
const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url))

/** PHONE is an iPhone 12–15 in portrait. */
const PHONE = { width: 390, height: 844 }

const SIGNER = {
  username: `sina-signer-${RUN}`,
  email: `sina-signer-${RUN}@example.com`,
  displayName: `Sina Signer ${RUN}`,
  password: 'sina journey passphrase 9',
}
const ASSESSOR_ORG = `Acme Assurance ${RUN}`
/** EXAMPLE_ATTESTATION is the CycloneDX specification's example attestation (shared test data). */
const EXAMPLE_ATTESTATION = join(STANDARDS_DATA, '..', 'cyclonedx', 'examples', 'valid-attestation-1.6.json')
const TITLE = `Payments ASVS 4 L1 ${RUN}`

const adminSession = workAdminSession
const api = workApi

// completeAssessment prepares a complete ASVS 4.0.3 level 1 assessment of a new entity with
// the signer as assessee, evidence on the first requirement and a claim about two.
async function completeAssessment(cookie, signerId) {
  const form = new FormData()
  form.append('file', new Blob([await readFile(ASVS_FILE)], { type: 'application/json' }), 'asvs-4.0.3.cdx.json')
  await api(cookie, 'POST', '/api/v1/standards/import', form)
  const found = await api(cookie, 'GET', `/api/v1/standards?identifier=${ASVS.identifier}&limit=100`)
  const standard = found.items.find((item) => item.standardVersion === ASVS.version)
  assert.ok(standard, 'ASVS 4.0.3 is in the catalogue')
  const level1 = (await api(cookie, 'GET', `/api/v1/standards/${standard.id}/levels`)).items.find((level) => level.identifier === 'Level 1')
  const entity = await api(cookie, 'POST', '/api/v1/entities', { name: `Payments service ${RUN}`, type: 'service' })
  let assessment = await api(cookie, 'POST', '/api/v1/assessments', {
    title: TITLE,
    entityId: entity.id,
    standards: [{ standardId: standard.id, levelId: level1.id }],
    assesseeIds: [signerId],
    completionEvidence: 'at_least_one', // one piece of evidence stands for the whole assessment here
  })
  assessment = await api(cookie, 'POST', `/api/v1/assessments/${assessment.id}/start`, { version: assessment.version })
  const requirements = (await api(cookie, 'GET', `/api/v1/assessments/${assessment.id}/requirements`)).items
  const evidence = await api(cookie, 'POST', '/api/v1/evidence', {
    name: `Pentest report ${RUN}`,
    requirementIds: [requirements[0].id],
    validFrom: '2026-01-01',
    validUntil: '2099-12-31',
  })
  await api(cookie, 'POST', `/api/v1/assessments/${assessment.id}/claims`, {
    name: `Output is encoded ${RUN}`,
    targetEntityId: entity.id,
    predicate: 'All output is encoded for its context.',
    evidenceIds: [evidence.id],
    requirementIds: [requirements[0].id, requirements[1].id],
  })
  const cycle = ['yes', 'yes', 'partial', 'no', 'not_applicable']
  const items = requirements.map((r, index) => ({ id: r.id, result: cycle[index % cycle.length], rationale: rationale(r.identifier) }))
  await api(cookie, 'POST', `/api/v1/assessments/${assessment.id}/requirements/bulk`, { items })
  assessment = await api(cookie, 'GET', `/api/v1/assessments/${assessment.id}`)
  assessment = await api(cookie, 'POST', `/api/v1/assessments/${assessment.id}/complete`, { version: assessment.version })
  assert.equal(assessment.state, 'complete')
  return { assessment, requirements }
}

let fixture = null
// ensureFixture prepares the server once per run: the administrator's session, the signer
// (assessee plus a custom role holding signatures.sign), an assessor and the complete assessment.
function ensureFixture() {
  fixture ??= (async () => {
    const cookie = await adminSession()
    const role = await api(cookie, 'POST', '/api/v1/roles', {
      name: `signer_${RUN}`,
      description: 'Signs attestations',
      permissions: ['signatures.sign'],
    })
    const signer = await api(cookie, 'POST', '/api/v1/users', { ...SIGNER, roles: ['assessee', role.name] })
    const assessor = await api(cookie, 'POST', '/api/v1/assessors', { name: ASSESSOR_ORG, url: 'https://assurance.example.com', thirdParty: true })
    const { assessment, requirements } = await completeAssessment(cookie, signer.id)
    return { cookie, signer, assessor, assessment, requirements }
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

// pickOption types into a searchable select and chooses the option that shows `text`.
async function pickOption(page, combobox, typed, text) {
  const select = combobox.locator('xpath=ancestor::div[contains(concat(" ", normalize-space(@class), " "), " el-select ")][1]')
  for (let attempt = 1; ; attempt++) {
    await combobox.click({ force: true })
    if (typed) await combobox.fill(typed)
    await page.getByRole('option').filter({ hasText: text }).first().click()
    if ((await select.textContent()).includes(text)) return
    if (attempt === 3) throw new Error(`the select does not show ${text} after picking it`)
  }
}

// confirm answers the confirmation box `title` with its button `name`.
async function confirm(page, title, name) {
  const box = page.getByRole('dialog', { name: title })
  await box.getByRole('button', { name, exact: true }).click()
  await box.waitFor({ state: 'hidden' })
}

// slot is the signatory slot titled `title` on the Affirmation tab.
function slot(page, title) {
  return page.locator('[data-test="slot"]').filter({ has: page.getByText(title, { exact: true }) })
}

// state is the attestation page's state tag once it shows `value`.
function state(page, value) {
  return page.locator(`[data-test="attestation-page"] header [data-test="attestation-state"][data-state="${value}"]`)
}

let sealedId = ''

journey(
  'an administrator attests a complete assessment; a second user signs digitally in the browser; the export verifies offline',
  async ({ page, context, problems }) => {
    const { cookie, signer, assessor, assessment, requirements } = await ensureFixture()
    await asAdministrator(context, cookie)

    // The list, then a new attestation of the complete assessment with the assessor.
    await page.goto(`${WORK_BASE_URL}/attestations`)
    await page.getByRole('heading', { level: 1, name: 'Attestations' }).waitFor()
    await page.locator('header').getByRole('button', { name: 'New attestation' }).click()
    const dialog = page.getByRole('dialog', { name: 'New attestation' })
    await pickOption(page, dialog.getByRole('combobox', { name: 'Assessment' }), TITLE, TITLE)
    await dialog.getByRole('textbox', { name: 'Summary' }).fill(`Payments at ASVS 4.0.3 level 1, ${RUN}`)
    await pickOption(page, dialog.getByRole('combobox', { name: 'Assessors' }), null, ASSESSOR_ORG)
    await dialog.getByRole('textbox', { name: 'Summary' }).click() // close the dropdown
    await dialog.getByRole('button', { name: 'Create', exact: true }).click()
    await page.getByRole('heading', { level: 1, name: TITLE }).waitFor()
    const id = pathOf(page).split('/').pop()
    assert.match(id, /^at_/)
    await state(page, 'draft').waitFor()
    let attestation = await api(cookie, 'GET', `/api/v1/attestations/${id}`)
    assert.equal(attestation.assessmentId, assessment.id)
    assert.deepEqual(attestation.assessors.map((a) => a.id), [assessor.id])

    // The map: the first requirement's score overridden to 90 %.
    const first = page.locator(`[data-test="map-row"][data-id="${requirements[0].id}"]`)
    // A number is taken when the field is left (Tab), as people do.
    await first.getByRole('spinbutton', { name: `Score override for ${requirements[0].identifier} in percent` }).fill('90')
    await first.getByRole('spinbutton', { name: `Score override for ${requirements[0].identifier} in percent` }).press('Tab')
    await first.getByRole('spinbutton', { name: `Confidence for ${requirements[0].identifier} in percent` }).fill('80')
    await first.getByRole('spinbutton', { name: `Confidence for ${requirements[0].identifier} in percent` }).press('Tab')
    await first.getByRole('textbox', { name: `Confidence rationale for ${requirements[0].identifier}` }).fill('Pen test of March.')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.getByText('Map saved.').waitFor()
    const map = (await api(cookie, 'GET', `/api/v1/attestations/${id}/requirements`)).items
    assert.deepEqual([map[0].scoreOverride, map[0].confidence, map[0].confidenceRationale], [0.9, 0.8, 'Pen test of March.'])

    // Two slots: one reserved for the signer, one open.
    await page.getByRole('tab', { name: 'Affirmation' }).click()
    await page.getByRole('button', { name: 'Add signatory' }).click()
    let add = page.getByRole('dialog', { name: 'Add signatory' })
    await add.getByRole('textbox', { name: 'Title' }).fill('Product owner')
    await pickOption(page, add.getByRole('combobox', { name: 'Reserved for' }), SIGNER.username, SIGNER.displayName)
    await add.getByRole('textbox', { name: 'Title' }).click()
    await add.getByRole('button', { name: 'Add', exact: true }).click()
    await add.waitFor({ state: 'hidden' })
    await slot(page, 'Product owner').getByText(`Reserved for ${SIGNER.displayName}`).waitFor()
    await page.getByRole('button', { name: 'Add signatory' }).click()
    add = page.getByRole('dialog', { name: 'Add signatory' })
    await add.getByRole('textbox', { name: 'Title' }).fill('Lead assessor')
    await add.getByRole('textbox', { name: 'Organisation' }).fill(ASSESSOR_ORG)
    await add.getByRole('button', { name: 'Add', exact: true }).click()
    await add.waitFor({ state: 'hidden' })
    await slot(page, 'Lead assessor').getByText('Anyone allowed to sign').waitFor()

    // The administrator signs the open slot electronically, with the typed name.
    await slot(page, 'Lead assessor').getByRole('button', { name: 'Sign', exact: true }).click()
    const sign = page.getByRole('dialog', { name: 'Sign as Lead assessor' })
    await sign.getByText('your signature freezes its map, claims and statement').waitFor()
    assert.equal(await sign.getByRole('textbox', { name: 'Name' }).inputValue(), WORK_ADMIN.displayName)
    await sign.getByRole('button', { name: 'Sign', exact: true }).click()
    await sign.waitFor({ state: 'hidden' })
    await slot(page, 'Lead assessor').getByText(`Signed by ${WORK_ADMIN.displayName}`).waitFor()
    await state(page, 'signing').waitFor()
    // Not yet: the reserved slot is unsigned, so Seal is not the primary action.
    assert.equal(await page.getByRole('button', { name: 'Seal' }).evaluate((button) => button.classList.contains('el-button--primary')), false)

    // The signer signs the reserved slot digitally with a key made in their browser.
    const other = await context.browser().newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } })
    try {
      const signerPage = await other.newPage()
      signerPage.setDefaultTimeout(15_000)
      signerPage.on('pageerror', (error) => problems.push(`signer: page error: ${error.message}`))
      signerPage.on('console', (message) => {
        if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) problems.push(`signer: CSP: ${message.text()}`)
      })
      await signIn(signerPage, WORK_BASE_URL, SIGNER)
      await signerPage.goto(`${WORK_BASE_URL}/attestations/${id}?tab=affirmation`)
      await signerPage.getByRole('heading', { level: 1, name: TITLE }).waitFor()
      // The open slot is signed already; only the reserved one offers Sign.
      assert.equal(await slot(signerPage, 'Lead assessor').getByRole('button', { name: 'Sign', exact: true }).count(), 0)
      await slot(signerPage, 'Product owner').getByRole('button', { name: 'Sign', exact: true }).click()
      const digital = signerPage.getByRole('dialog', { name: 'Sign as Product owner' })
      await digital.getByRole('tab', { name: 'Digital' }).click()
      await digital.getByRole('button', { name: 'Generate a key' }).click()
      const thumbprint = (await digital.locator('[data-test="key-thumbprint"]').textContent()).trim()
      assert.match(thumbprint, /^[A-Za-z0-9_-]{43}$/)
      const algorithm = await digital.locator('[data-test="key-algorithm"]').textContent()
      await digital.getByRole('button', { name: 'Sign with this key' }).click()
      await digital.waitFor({ state: 'hidden' })
      await slot(signerPage, 'Product owner').getByText(`Signed by ${SIGNER.displayName}`).waitFor()
      attestation = await api(cookie, 'GET', `/api/v1/attestations/${id}`)
      const signed = attestation.signatories.find((s) => s.title === 'Product owner')
      assert.deepEqual([signed.kind, signed.keyId, signed.signedBy.id], ['digital', thumbprint, signer.id], `signed with ${algorithm}`)
    } finally {
      await other.close()
    }

    // The administrator seals: Seal is now the primary action.
    await page.reload()
    await page.getByRole('heading', { level: 1, name: TITLE }).waitFor()
    const seal = page.getByRole('button', { name: 'Seal' })
    assert.equal(await seal.evaluate((button) => button.classList.contains('el-button--primary')), true)
    await seal.click()
    await confirm(page, 'Seal the attestation?', 'Seal')
    await state(page, 'sealed').waitFor()
    sealedId = id

    // Verification: a green verdict, every signature valid.
    await page.getByRole('button', { name: 'Verify', exact: true }).click()
    const report = page.locator('[data-test="verification-report"]')
    await report.waitFor()
    assert.equal(await report.getAttribute('data-ok'), 'true')
    await report.getByText('Every signature is valid').waitFor()
    const statuses = await report.locator('[data-test="report-check"]').evaluateAll((rows) => rows.map((row) => row.dataset.status))
    assert.ok(statuses.length >= 4, `the platform's, the signer's and the seal's signatures are checked: ${statuses}`)
    assert.deepEqual([...new Set(statuses)], ['valid'])

    // Export, and verify the file offline with the public key set.
    const dir = await mkdtemp(join(tmpdir(), 'assay-attestation-'))
    try {
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CycloneDX' }).click()])
      const file = join(dir, download.suggestedFilename())
      assert.match(download.suggestedFilename(), /\.json$/)
      await download.saveAs(file)
      const doc = JSON.parse(await readFile(file, 'utf8'))
      assert.equal(doc.bomFormat, 'CycloneDX')
      const jwks = await fetch(`${WORK_BASE_URL}/api/v1/platform-keys/jwks.json`, { signal: AbortSignal.timeout(10_000) })
      assert.equal(jwks.status, 200)
      const jwksFile = join(dir, 'jwks.json')
      await writeFile(jwksFile, Buffer.from(await jwks.arrayBuffer()))
      const verified = await run(ASSAY_CTL, ['verify', file, '--jwks', jwksFile], { timeout: 30_000 }).catch((error) => error)
      assert.equal(verified.code ?? 0, 0, `assay-ctl verify exited ${verified.code}:\n${verified.stdout}\n${verified.stderr}`)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }

    // The PDF report of the sealed attestation (issue 24).
    const [pdf] = await Promise.all([page.waitForEvent('download'), page.locator('[data-test="attestation-report"]').click()])
    assert.match(pdf.suggestedFilename(), /^attestation-.+-report\.pdf$/)
    assert.equal((await readFile(await pdf.path())).subarray(0, 5).toString('latin1'), '%PDF-')

    await mkdir(ARTIFACTS, { recursive: true })
    await page.screenshot({ path: `${ARTIFACTS}attestation-desktop.png`, fullPage: true })
  },
  { skip, timeout: 180_000 },
)

journey(
  'on a phone, in German and dark mode, the sealed attestation fits the screen',
  async ({ page, context }) => {
    const { cookie } = await ensureFixture()
    assert.ok(sealedId, 'the first journey sealed an attestation')
    await asAdministrator(context, cookie)
    await page.goto(`${WORK_BASE_URL}/attestations`)
    await page.evaluate(() => globalThis.localStorage.setItem('assay.locale', 'de'))
    await page.goto(`${WORK_BASE_URL}/attestations/${sealedId}`)
    await page.getByRole('heading', { level: 1, name: TITLE }).waitFor()
    assert.equal(await page.locator('html').getAttribute('lang'), 'de')
    assert.ok(await page.locator('html').evaluate((html) => html.classList.contains('dark')), 'the page is dark')
    await page.getByText('Versiegelt', { exact: true }).first().waitFor()
    await page.locator('[data-test="map-row"]').first().waitFor()
    await mkdir(ARTIFACTS, { recursive: true })
    const fits = async (name) => {
      await page.screenshot({ path: `${ARTIFACTS}attestation-phone-de-dark-${name}.png`, fullPage: true })
      const overflows = await page.locator('html').evaluate((html) => html.scrollWidth > html.ownerDocument.defaultView.innerWidth)
      assert.equal(overflows, false, `the ${name} tab fits the screen`)
    }
    await fits('map')
    await page.getByRole('tab', { name: 'Bestätigung' }).click()
    await page.locator('[data-test="slot"]').first().waitFor()
    await fits('affirmation')
    await page.getByRole('tab', { name: 'Prüfung' }).click()
    await page.getByText('Alle Signaturen sind gültig').waitFor()
    await fits('verification')
    await page.goto(`${WORK_BASE_URL}/attestations`)
    await page.locator('[data-test="attestation-cards"] [data-test="attestation-row"]').first().waitFor()
    await fits('list')
  },
  { skip, timeout: 60_000, viewport: PHONE, colorScheme: 'dark' },
)

journey(
  'an administrator checks and imports an attestation document made elsewhere',
  async ({ page, context }) => {
    const { cookie } = await ensureFixture()
    await asAdministrator(context, cookie)
    const serial = `urn:uuid:3e671687-395b-41f5-a30f-${Date.now().toString(16).padStart(12, '0').slice(-12)}`
    const original = await readFile(EXAMPLE_ATTESTATION, 'utf8')
    const doc = original.replace('urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79', serial)
    const dir = await mkdtemp(join(tmpdir(), 'assay-import-'))
    const file = join(dir, 'example-attestation.json')
    await writeFile(file, doc)
    try {
      await page.goto(`${WORK_BASE_URL}/attestations`)
      await page.getByRole('heading', { level: 1, name: 'Attestations' }).waitFor()
      await page.locator('[data-test="attestation-import"]').click()
      const dialog = page.getByRole('dialog', { name: 'Import an attestation document' })
      await dialog.locator('[data-test="import-file"]').setInputFiles(file)
      await dialog.getByText('example-attestation.json').waitFor()
      const before = (await api(cookie, 'GET', '/api/v1/attestation-imports')).items.length
      await dialog.getByRole('button', { name: 'Check', exact: true }).click()
      await dialog.getByText('Checked: nothing was changed.', { exact: false }).waitFor()
      await dialog.getByText('Not signed').first().waitFor()
      await dialog.getByText('No claim "counterClaim-1" is declared', { exact: false }).waitFor()
      assert.equal((await api(cookie, 'GET', '/api/v1/attestation-imports')).items.length, before, 'a check changes nothing')
      await dialog.getByRole('button', { name: 'Import', exact: true }).click()
      await page.locator('[data-test="imported-banner"]').waitFor()
      await state(page, 'imported').waitFor()
      const id = pathOf(page).split('/').pop()
      assert.match(id, /^at_/)
      for (const action of ['attestation-seal', 'attestation-edit', 'attestation-rescind']) {
        assert.equal(await page.locator(`[data-test="${action}"]`).count(), 0, `no ${action} on an imported attestation`)
      }
      const imported = await api(cookie, 'GET', `/api/v1/attestations/${id}`)
      assert.equal(imported.imported.signatures, 'absent')

      // The same document again: recognised, nothing created.
      await page.goto(`${WORK_BASE_URL}/attestations/imports`)
      await page.locator('[data-test="import-row"]').first().waitFor()
      await page.locator('[data-test="import-open"]').click()
      const again = page.getByRole('dialog', { name: 'Import an attestation document' })
      await again.locator('[data-test="import-file"]').setInputFiles(file)
      await again.getByRole('button', { name: 'Check', exact: true }).click()
      await again.locator('[data-test="import-already"]').waitFor()
      assert.ok(await again.getByRole('button', { name: 'Import', exact: true }).isDisabled())
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  },
  { skip, timeout: 60_000 },
)

journey(
  'an administrator has the service hold a signing key and signs with it, giving the password again',
  async ({ page, context }) => {
    const { cookie, assessment } = await ensureFixture()
    await asAdministrator(context, cookie)
    const label = `Audit key ${RUN}`

    // The profile: generate a key held by the service (ES256), listed as held.
    await page.goto(`${WORK_BASE_URL}/profile`)
    const card = page.locator('[data-test="signing-keys"]')
    await card.getByRole('button', { name: 'Generate a key held by the service' }).click()
    const generate = page.getByRole('dialog', { name: 'Generate a key held by the service' })
    await generate.getByRole('textbox', { name: 'Label' }).fill(label)
    await generate.getByText('ES256 (ECDSA on P-256)').click()
    await generate.getByRole('button', { name: 'Generate key', exact: true }).click()
    const row = card.locator('[data-test="signing-key"]').filter({ hasText: label })
    const refused = generate.locator('[data-test="held-key-needs-encryption"]')
    await row.or(refused).first().waitFor()
    assert.equal(await refused.count(), 0, 'the service refused to hold a key: start the server with MASTER_ENCRYPTION_KEY (scripts/test.sh does)')
    await generate.waitFor({ state: 'hidden' })
    await row.locator('[data-test="signing-key-held"]').waitFor()
    assert.equal((await row.locator('[data-test="signing-key-algorithm"]').textContent()).trim(), 'ES256')
    const thumbprint = (await row.locator('[data-test="signing-key-thumbprint"]').textContent()).trim()
    assert.match(thumbprint, /^[A-Za-z0-9_-]{43}$/)

    // A new attestation of the complete assessment with one open slot (through the API: the
    // first journey creates one in the UI).
    const created = await api(cookie, 'POST', '/api/v1/attestations', { assessmentId: assessment.id, summary: `Held key, ${RUN}` })
    await api(cookie, 'POST', `/api/v1/attestations/${created.id}/signatories`, { title: 'Security officer', organization: ASSESSOR_ORG })
    await page.goto(`${WORK_BASE_URL}/attestations/${created.id}?tab=affirmation`)
    await page.getByRole('heading', { level: 1, name: TITLE }).waitFor()

    // The sign dialog offers the held key first and asks for the password.
    await slot(page, 'Security officer').getByRole('button', { name: 'Sign', exact: true }).click()
    const sign = page.getByRole('dialog', { name: 'Sign as Security officer' })
    await sign.getByRole('tab', { name: 'Digital' }).click()
    assert.equal(await sign.getByRole('radio', { name: 'A key held by the service' }).isChecked(), true, 'the held key is the first choice')
    await sign.getByText(`${label} (ES256)`).waitFor()
    const submit = sign.getByRole('button', { name: 'Sign with this key' })
    await submit.click()
    await sign.getByText('Enter your password.').waitFor()
    const password = sign.locator('input[type="password"]')
    await password.fill(`${WORK_ADMIN.password} not`)
    await submit.click()
    await sign.getByText('The password is incorrect.').first().waitFor()
    assert.equal(await password.inputValue(), '', 'a wrong password is cleared')
    let attestation = await api(cookie, 'GET', `/api/v1/attestations/${created.id}`)
    assert.equal(attestation.state, 'draft', 'a refused password signs nothing and freezes nothing')
    await password.fill(WORK_ADMIN.password)
    await submit.click()
    await sign.waitFor({ state: 'hidden' })
    await slot(page, 'Security officer').getByText(`Signed by ${WORK_ADMIN.displayName}`).waitFor()
    attestation = await api(cookie, 'GET', `/api/v1/attestations/${created.id}`)
    const signed = attestation.signatories.find((s) => s.title === 'Security officer')
    assert.deepEqual([signed.kind, signed.keyId], ['digital', thumbprint], 'signed digitally with the held key')

    // Sealed, the Verification tab shows the held key's signature valid.
    await page.getByRole('button', { name: 'Seal' }).click()
    await confirm(page, 'Seal the attestation?', 'Seal')
    await state(page, 'sealed').waitFor()
    await page.getByRole('tab', { name: 'Verification' }).click()
    const report = page.locator('[data-test="verification-report"]')
    await report.waitFor()
    await report.getByText('Every signature is valid').waitFor()
    assert.equal(await report.getAttribute('data-ok'), 'true')
    const held = report.locator('[data-test="report-check"]').filter({ hasText: thumbprint })
    const statuses = await held.evaluateAll((rows) => rows.map((r) => r.dataset.status))
    assert.ok(statuses.length >= 1, `the held key's signature is checked: ${await report.textContent()}`)
    assert.deepEqual([...new Set(statuses)], ['valid'])
  },
  { skip, timeout: 120_000 },
)
