// The journeys of events and deliveries: an administrator adds a webhook pointing at
// a receiver this test runs on 127.0.0.1, sends it a test and sees the delivery
// succeed; and a user sees a notification arrive in the bell after an administrator,
// in another browser, changes their account.
//
// They run on the administration journeys' server (ADMIN_BASE_URL), after the
// journey of administration.test.mjs, which registers them: test files run in
// parallel, and these need the installation that journey sets up (they set it up
// through the API themselves should it have failed first). The server must be
// started with OUTBOUND_ALLOW_NETWORKS=127.0.0.1/32 (so it may deliver to the local
// receiver over plain http) and RUN_WORKERS=true (so it delivers at all); see
// scripts/test.sh. They use 3 of the server's 10 sign-in writes per address in 15
// minutes.
import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { createServer } from 'node:http'
import { ADMIN_BASE_URL, adminUrl, ensureSetUp as ensureSetUpAt, journey, signIn as signInAt, waitForPath } from './support.mjs'

const USER = {
  username: 'nora',
  email: 'nora@example.com',
  displayName: 'Nora Notified',
  password: 'notified user passphrase 3',
}

// startReceiver runs a webhook receiver on 127.0.0.1 that records every request and
// acknowledges it with 204.
async function startReceiver() {
  const requests = []
  const server = createServer((request, response) => {
    const chunks = []
    request.on('data', (chunk) => chunks.push(chunk))
    request.on('end', () => {
      requests.push({ method: request.method, url: request.url, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') })
      response.writeHead(204).end()
    })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address()
  return {
    url: `http://127.0.0.1:${port}/hooks/assay`,
    requests,
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}

// expectedSignature is the Standard Webhooks signature of a delivery: HMAC-SHA256 with
// the base64-decoded part of the secret after "whsec_", over id.timestamp.body.
function expectedSignature(secret, id, timestamp, body) {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64')
  return 'v1,' + createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')
}

// waitFor polls `check` until it returns something truthy, or fails after `timeout` ms.
async function waitFor(check, message, timeout = 20_000) {
  const deadline = Date.now() + timeout
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out: ${message}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

// ensureSetUp and signIn are support.mjs' helpers on this server.
const ensureSetUp = (admin) => ensureSetUpAt(ADMIN_BASE_URL, admin)
const signIn = (page, account) => signInAt(page, ADMIN_BASE_URL, account)

// openAdministration opens an entry of the Administration group of the main navigation.
async function openAdministration(page, entry) {
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('button', { name: 'Administration' }).click()
  await page.getByRole('menuitem', { name: entry, exact: true }).click()
  await page.getByRole('heading', { level: 1, name: entry }).waitFor()
}

/**
 * notificationJourneys declares the journeys; `admin` is the administrator the
 * administration journey created, `skip` its reason to skip (as node:test takes it).
 */
export function notificationJourneys({ admin, skip }) {
  journey(
    'add a webhook, send it a test and see the signed delivery succeed in its log',
    async ({ page, context }) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ADMIN_BASE_URL })
      await ensureSetUp(admin)
      const receiver = await startReceiver()
      try {
        await signIn(page, admin)
        await openAdministration(page, 'Webhooks')

        // Add a webhook for every event, pointing at the local receiver.
        await page.getByRole('button', { name: 'Add webhook' }).click()
        const dialog = page.getByRole('dialog', { name: 'Add a webhook' })
        await dialog.getByLabel('Name', { exact: true }).fill('Local receiver')
        await dialog.getByLabel('URL', { exact: true }).fill(receiver.url)
        assert.equal(await dialog.getByRole('radio', { name: 'All events' }).isChecked(), true)
        await dialog.getByRole('button', { name: 'Add webhook' }).click()

        // The signing secret is shown once: copy it, then dismiss it.
        const reveal = page.getByRole('dialog', { name: 'Signing secret of Local receiver' })
        await reveal.getByRole('button', { name: 'Copy' }).click()
        await page.getByText('Copied to the clipboard.').waitFor()
        const secret = await page.evaluate(() => navigator.clipboard.readText())
        assert.match(secret, /^whsec_[A-Za-z0-9+/]+=*$/)
        assert.equal(await reveal.getByLabel('Signing secret').inputValue(), secret)
        await reveal.getByRole('button', { name: 'I have copied the secret' }).click()
        await reveal.waitFor({ state: 'hidden' })
        const row = page.getByRole('row', { name: /Local receiver/ })
        await row.getByText('Active', { exact: true }).waitFor()
        await row.getByText(receiver.url).waitFor()

        // Send a test: the delivery log opens and shows the test delivery succeed. (The
        // webhook's own creation, an event too, was delivered before it.)
        await row.getByRole('button', { name: 'Send a test to Local receiver' }).click()
        await page.getByText('A test message to Local receiver has been queued.').waitFor()
        const log = page.getByRole('dialog', { name: 'Deliveries to Local receiver' })
        const testRow = log.getByRole('row', { name: /channel\.test/ })
        await testRow.locator('[data-test^="delivery-status-"]', { hasText: 'Succeeded' }).waitFor({ timeout: 30_000 })
        const deliveryId = (await testRow.locator('[data-test^="delivery-status-"]').getAttribute('data-test')).slice(
          'delivery-status-'.length,
        )
        assert.match(deliveryId, /^dl_/)
        await testRow.getByText(/^1 of \d+$/).waitFor()
        await log.getByRole('row', { name: /channel\.webhook\.created/ }).waitFor()

        // Its details list the attempt and the payload sent.
        await log.getByRole('button', { name: `Show the details of delivery ${deliveryId}` }).click()
        const detail = log.locator(`[data-test="delivery-detail-${deliveryId}"]`)
        await detail.getByRole('cell', { name: '204', exact: true }).waitFor()
        await detail.getByRole('cell', { name: 'Succeeded', exact: true }).waitFor()
        const payload = JSON.parse(await detail.locator('[data-test="delivery-payload"]').innerText())
        assert.equal(payload.type, 'channel.test')

        // The receiver got the test as a POST under the delivery's id, signed with the secret.
        const request = await waitFor(
          () => receiver.requests.find((entry) => entry.headers['webhook-id'] === deliveryId),
          'the receiver got no test delivery',
        )
        assert.equal(request.method, 'POST')
        assert.equal(request.url, '/hooks/assay')
        assert.equal(request.headers['content-type'], 'application/json')
        assert.equal(request.headers['webhook-id'], deliveryId)
        const timestamp = request.headers['webhook-timestamp']
        assert.match(timestamp, /^\d+$/)
        assert.ok(Math.abs(Number(timestamp) - Date.now() / 1000) < 300, 'the timestamp is about now')
        assert.equal(request.headers['webhook-signature'], expectedSignature(secret, deliveryId, timestamp, request.body))
        const envelope = JSON.parse(request.body)
        assert.equal(envelope.type, 'channel.test')
        assert.equal(envelope.id, payload.id)
        assert.equal(receiver.requests.filter((entry) => entry.headers['webhook-id'] === deliveryId).length, 1)
      } finally {
        await receiver.close()
      }
    },
    { timeout: 90_000, skip },
  )

  journey(
    'a user sees a notification in the bell after an administrator changes their account, and reads it',
    async ({ page, context }) => {
      await ensureSetUp(admin)
      await signIn(page, admin)

      // The administrator creates an assessee.
      await openAdministration(page, 'Users')
      await page.getByRole('button', { name: 'Create user' }).click()
      const form = page.getByRole('dialog', { name: 'Create a user' })
      await form.getByLabel('Username', { exact: true }).fill(USER.username)
      await form.getByLabel('Display name', { exact: true }).fill(USER.displayName)
      await form.getByLabel('E-mail address', { exact: true }).fill(USER.email)
      await form.getByLabel('Initial password', { exact: true }).fill(USER.password)
      await form.getByRole('button', { name: 'Create user' }).click()
      await page.getByText(`User ${USER.username} has been created.`).waitFor()

      // The user signs in elsewhere; nothing is unread yet.
      const elsewhere = await context.browser().newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } })
      try {
        const user = await elsewhere.newPage()
        user.setDefaultTimeout(15_000)
        await signIn(user, USER)
        const bell = user.getByRole('button', { name: /^Notifications/ })
        await bell.waitFor()
        assert.equal(await bell.getAttribute('aria-label'), 'Notifications')

        // The administrator changes the user's display name.
        await page.getByRole('button', { name: `Edit user ${USER.username}` }).click()
        const drawer = page.getByRole('dialog', { name: 'Edit user' })
        await drawer.getByLabel('Display name', { exact: true }).fill('Nora Renamed')
        await drawer.getByRole('button', { name: 'Save' }).click()
        await page.getByText(`The changes to ${USER.username} have been saved.`).waitFor()

        // Within a poll the user's bell counts it, and its popover names who did what.
        const unread = user.getByRole('button', { name: 'Notifications, 1 unread' })
        await unread.waitFor({ timeout: 20_000 })
        assert.equal((await unread.locator('.el-badge__content').innerText()).trim(), '1')
        await unread.click()
        const panel = user.getByRole('dialog', { name: 'Notifications' })
        const item = panel.getByRole('button', { name: /User updated/ })
        await item.waitFor()
        assert.ok((await item.innerText()).includes(`${admin.displayName} changed the account ${USER.username}.`))
        assert.match(await item.innerText(), /just now|minute/)

        // Opening it marks it read and leads to the user's own profile.
        await item.click()
        await waitForPath(user, '/profile')
        await user.getByRole('heading', { level: 1, name: 'Profile' }).waitFor()
        await user.getByRole('button', { name: 'Notifications', exact: true }).waitFor()
        const list = await user.request.get(adminUrl('/api/v1/notifications'))
        const [notification] = (await list.json()).items
        assert.equal(notification.type, 'user.updated')
        assert.equal(notification.read, true)

        // The notifications page lists it as read.
        await user.goto(adminUrl('/notifications'))
        await user.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor()
        await user.getByRole('button', { name: /User updated/ }).waitFor()
        assert.equal(await user.getByRole('button', { name: 'Mark read', exact: true }).count(), 0)
      } finally {
        await elsewhere.close()
      }
    },
    { timeout: 90_000, skip },
  )
}
