// Journey for the interactive API documentation served at /api/v1/docs.
import assert from 'node:assert/strict'
import { journey, url, waitForPath } from './support.mjs'

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', new URL(url('/')).hostname])

journey('the API documentation renders offline from the server alone', async ({ page }) => {
  const requested = []
  page.on('request', (request) => requested.push(request.url()))

  const response = await page.goto(url('/api/v1/docs'))
  assert.equal(response?.status(), 200)
  await page.locator('.swagger-ui .info').waitFor()
  await page.locator('.swagger-ui .opblock').first().waitFor()

  assert.ok(
    requested.some((address) => new URL(address).pathname === '/api/v1/openapi.json'),
    'the page loaded the OpenAPI description',
  )
  const external = requested.filter((address) => {
    const { protocol, hostname } = new URL(address)
    return (protocol === 'http:' || protocol === 'https:') && !LOCAL_HOSTS.has(hostname)
  })
  assert.deepEqual(external, [], 'no request left the server')
})

// isDark reports whether the page shows Swagger UI's dark theme.
function isDark(page) {
  return page.locator('html').evaluate((html) => html.classList.contains('dark-mode'))
}

journey(
  'the API documentation follows the system colour scheme and leads back to Assay',
  async ({ page }) => {
    await page.goto(url('/api/v1/docs'))
    await page.locator('.swagger-ui .info').waitFor()
    assert.equal(await isDark(page), true, 'dark like the system, as long as Assay has no stored choice')
    const background = await page
      .locator('.swagger-ui')
      .evaluate((element) => element.ownerDocument.defaultView.getComputedStyle(element).backgroundColor)
    assert.notEqual(background, 'rgb(255, 255, 255)')

    const back = page.getByRole('link', { name: 'Back to Assay' })
    assert.ok(await back.isVisible())
    await back.click()
    // A fresh installation: the application leads on to its setup wizard.
    await waitForPath(page, '/setup')
  },
  { colorScheme: 'dark' },
)

journey('the API documentation follows the theme and language chosen in Assay', async ({ page }) => {
  // Light system, but the viewer picked dark mode and German in the application.
  await page.goto(url('/setup'))
  await page.evaluate(() => {
    localStorage.setItem('assay.theme', 'dark')
    localStorage.setItem('assay.locale', 'de')
  })
  await page.goto(url('/api/v1/docs'))
  await page.locator('.swagger-ui .info').waitFor()
  assert.equal(await isDark(page), true)
  assert.ok(await page.getByRole('link', { name: 'Zurück zu Assay' }).isVisible())

  await page.evaluate(() => localStorage.setItem('assay.theme', 'light'))
  await page.reload()
  await page.locator('.swagger-ui .info').waitFor()
  assert.equal(await isDark(page), false)
})
