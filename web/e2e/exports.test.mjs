// The CSV export at scale (issue 25, "done means"), on the bulk server (BULK_BASE_URL), which
// scripts/test.sh fills with 100,000 pieces of evidence (pkg/datagen) and few of anything else:
// the administrator opens the evidence list and clicks Export CSV; the browser downloads every
// row while the journey samples the server's resident memory (VmRSS of
// /proc/BULK_SERVER_PID/status) every 20 ms. The file holds the header and 100,000 rows, and the
// server's RSS stays within 32 MiB of its value once the list has loaded.
//
// The browser does not sign in: it takes the session of the server's setup (BULK_SESSION, a
// cookie) and the server was restarted since. A sign-in would hash the password in the measured
// process (argon2id, about 20 MiB), and the Go runtime gives that memory back within seconds —
// during the export, whose own growth it would then hide. The figures are printed so a CI log
// shows them; scripts/bench-dashboard.sh measures the same export by API key.
import assert from 'node:assert/strict'
import { createReadStream } from 'node:fs'
import { open, readFile } from 'node:fs/promises'
import { setTimeout as sleep } from 'node:timers/promises'
import { journey, pathOf } from './support.mjs'

const BULK_BASE_URL = (process.env.BULK_BASE_URL || '').replace(/\/$/, '')
const BULK_SESSION = process.env.BULK_SESSION || ''
const BULK_SERVER_PID = process.env.BULK_SERVER_PID

const skip = BULK_BASE_URL ? false : 'BULK_BASE_URL is not set (scripts/test.sh starts the bulk server with 100,000 pieces of evidence)'
const EVIDENCE_ROWS = 100_000
const RSS_BOUND_KIB = 32 * 1024
const SAMPLE_MS = 20
const MiB = (kib) => (kib / 1024).toFixed(1)

// The columns of GET /api/v1/evidence.csv (pkg/httpapi/csv_lists.go).
const HEADER = [
  'id', 'name', 'state', 'classification', 'counter_evidence', 'author', 'reviewer', 'collected_on', 'valid_from',
  'valid_until', 'attachments', 'assessments', 'tags', 'submitted_at', 'reviewed_at', 'created_at', 'updated_at',
].join(',')

// serverRss is the bulk server's resident set size in KiB.
async function serverRss() {
  const status = await readFile(`/proc/${BULK_SERVER_PID}/status`, 'utf8')
  const line = status.split('\n').find((l) => l.startsWith('VmRSS:'))
  assert.ok(line, `no VmRSS in /proc/${BULK_SERVER_PID}/status`)
  return Number(line.split(/\s+/)[1])
}

// firstLine is the first line of the file at `path` (without its line break).
async function firstLine(path) {
  const file = await open(path)
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(4096), 0, 4096, 0)
    return buffer.subarray(0, bytesRead).toString('utf8').split('\n')[0].replace(/\r$/, '')
  } finally {
    await file.close()
  }
}

// csvRecords streams the file at `path` and counts its records (line breaks outside quoted
// cells, so a cell with a line break in it stays one record) and its bytes.
async function csvRecords(path) {
  let records = 0
  let bytes = 0
  let quoted = false
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    bytes += chunk.length
    for (let i = 0; i < chunk.length; i++) {
      if (chunk[i] === 0x22) quoted = !quoted
      else if (chunk[i] === 0x0a && !quoted) records++
    }
  }
  return { records, bytes }
}

journey(
  'the administrator exports 100,000 pieces of evidence as CSV from the evidence list, and the server grows by less than 32 MiB meanwhile',
  async ({ page, context }) => {
    assert.ok(BULK_SERVER_PID, 'BULK_SERVER_PID is not set: the journey reads the server process’s memory')
    assert.match(BULK_SESSION, /^[^=;\s]+=[^;\s]+$/, 'BULK_SESSION is not set to the administrator’s session cookie (name=value)')
    const at = BULK_SESSION.indexOf('=')
    await context.addCookies([{ name: BULK_SESSION.slice(0, at), value: BULK_SESSION.slice(at + 1), url: BULK_BASE_URL }])

    await page.goto(`${BULK_BASE_URL}/evidence`)
    // Without a valid session the app shows the sign-in page instead.
    await page.getByRole('heading', { level: 1, name: 'Evidence' }).or(page.getByRole('button', { name: 'Sign in' })).waitFor()
    assert.equal(pathOf(page), '/evidence', 'the session cookie (BULK_SESSION) signs the administrator in')
    await page.locator('[data-test="evidence-table"] [data-test="evidence-link"]').first().waitFor({ timeout: 30_000 })
    const baseline = await serverRss()

    let peak = baseline
    let samples = 0
    let sampling = true
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, await serverRss())
        samples++
        await sleep(SAMPLE_MS)
      }
    })()
    const started = performance.now()
    let file
    try {
      const downloading = page.waitForEvent('download', { timeout: 30_000 })
      await page.getByRole('link', { name: 'Export CSV' }).click()
      const download = await downloading
      assert.equal(download.suggestedFilename(), 'evidence.csv')
      file = await download.path() // resolves once the whole file is on disk
      assert.equal(await download.failure(), null)
    } finally {
      sampling = false
      await sampler
    }
    const seconds = (performance.now() - started) / 1000
    peak = Math.max(peak, await serverRss())

    const { records, bytes } = await csvRecords(file)
    const growth = peak - baseline
    console.log(
      `evidence.csv: ${records - 1} rows, ${bytes} bytes in ${seconds.toFixed(1)} s; bulk server RSS ${MiB(baseline)} MiB ` +
        `at the loaded list, peak ${MiB(peak)} MiB (${samples} samples): growth ${MiB(growth)} MiB (bound 32 MiB)`,
    )
    const header = await firstLine(file)
    assert.ok(header.startsWith('\uFEFF'), 'the file starts with a UTF-8 byte-order mark (spreadsheets then read it as UTF-8)')
    assert.equal(header.slice(1), HEADER)
    assert.equal(records - 1, EVIDENCE_ROWS, 'data rows after the header')
    assert.ok(growth < RSS_BOUND_KIB, `server RSS grew by ${MiB(growth)} MiB during the export (bound 32 MiB)`)
  },
  { skip, timeout: 180_000 },
)
