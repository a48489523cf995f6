// Package web holds the Assay single-page application, built from the sources in
// this directory by `npm run build`.
package web

import "embed"

// Dist is the production build of the web UI: index.html (the fallback for every
// UI path), hashed and cacheable files under assets/, and the API documentation
// page under apidocs/ (served at /api/v1/docs). Before the first build it holds
// only the .gitkeep placeholder, so the Go program compiles without Node.js.
//
//go:embed all:dist
var Dist embed.FS
