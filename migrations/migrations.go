// Package migrations embeds the numbered, forward-only SQL migrations of the service.
// File names are NNNN_description.sql; each file runs in its own transaction.
package migrations

import "embed"

// FS holds every migration file.
//
//go:embed *.sql
var FS embed.FS
