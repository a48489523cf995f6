// Package catalogue is the store's catalogue area: standards with their requirements and
// levels, their lifecycle, copies and CycloneDX/CSV transfer, and tags. It builds on the kit
// (package postgres) and never imports another area.
package catalogue

import "github.com/assay-dev/assay/pkg/postgres"

// StandardService implements assess.StandardService.
type StandardService struct{ db *postgres.DB }

// NewStandardService returns the service on db.
func NewStandardService(db *postgres.DB) *StandardService { return &StandardService{db} }

// StandardTransferService implements assess.StandardTransferService.
type StandardTransferService struct{ db *postgres.DB }

// NewStandardTransferService returns the service on db.
func NewStandardTransferService(db *postgres.DB) *StandardTransferService {
	return &StandardTransferService{db}
}

// TagService implements assess.TagService.
type TagService struct{ db *postgres.DB }

// NewTagService returns the service on db.
func NewTagService(db *postgres.DB) *TagService { return &TagService{db} }
