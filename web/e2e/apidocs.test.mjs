// Journey for the interactive API documentation served at /api/v1/docs.
import assert from 'node:assert/strict'
import { journey, url } from './support.mjs'

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
