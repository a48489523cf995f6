// Starts Swagger UI on the Assay API description. Kept in its own file because
// the server's Content-Security-Policy allows no inline scripts.
/* global SwaggerUIBundle */
'use strict'

window.ui = SwaggerUIBundle({
  url: '/api/v1/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  // Shows `x-required-permission` on every operation.
  showExtensions: true,
  showCommonExtensions: true,
  // No validator badge: it would send the description to an outside service.
  validatorUrl: null,
  // Ignore ?url=… so the page cannot be pointed at another description.
  queryConfigEnabled: false,
  // Requests from "Try it out" carry the session cookie (same origin).
  withCredentials: true,
  presets: [SwaggerUIBundle.presets.apis],
  plugins: [SwaggerUIBundle.plugins.DownloadUrl],
  layout: 'BaseLayout',
})
