// Package work is the store's area of the work done on the catalogue: entities and their
// relationships and policies, projects, assessments and their results, evidence with its
// files, links, review and expiry, claims, work notes, and attestations with their signing
// keys. It builds on the kit (package postgres) and never imports another area.
package work

import (
	"context"
	"time"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// EntityService implements assess.EntityService.
type EntityService struct{ db *postgres.DB }

// NewEntityService returns the service on db.
func NewEntityService(db *postgres.DB) *EntityService { return &EntityService{db} }

// ProjectService implements assess.ProjectService.
type ProjectService struct{ db *postgres.DB }

// NewProjectService returns the service on db.
func NewProjectService(db *postgres.DB) *ProjectService { return &ProjectService{db} }

// AssessmentService implements assess.AssessmentService.
type AssessmentService struct {
	db       *postgres.DB
	minWords int // the fewest words of a rationale (ASSESSMENT_RATIONALE_MIN_WORDS; 0: none)
}

// NewAssessmentService returns the service on db; a rationale needs at least minWords words (0: no
// minimum; negative counts as 0).
func NewAssessmentService(db *postgres.DB, minWords int) *AssessmentService {
	return &AssessmentService{db, max(minWords, 0)}
}

// ResultService implements assess.ResultService.
type ResultService struct {
	db       *postgres.DB
	minWords int // the fewest words of a rationale (ASSESSMENT_RATIONALE_MIN_WORDS; 0: none)
}

// NewResultService returns the service on db; a rationale needs at least minWords words (0: no
// minimum; negative counts as 0).
func NewResultService(db *postgres.DB, minWords int) *ResultService {
	return &ResultService{db, max(minWords, 0)}
}

// EvidenceService implements assess.EvidenceService.
type EvidenceService struct{ db *postgres.DB }

// NewEvidenceService returns the service on db.
func NewEvidenceService(db *postgres.DB) *EvidenceService { return &EvidenceService{db} }

// AttachmentService implements assess.AttachmentService.
type AttachmentService struct{ db *postgres.DB }

// NewAttachmentService returns the service on db.
func NewAttachmentService(db *postgres.DB) *AttachmentService { return &AttachmentService{db} }

// ClaimService implements assess.ClaimService.
type ClaimService struct{ db *postgres.DB }

// NewClaimService returns the service on db.
func NewClaimService(db *postgres.DB) *ClaimService { return &ClaimService{db} }

// WorkNoteService implements assess.WorkNoteService.
type WorkNoteService struct{ db *postgres.DB }

// NewWorkNoteService returns the service on db.
func NewWorkNoteService(db *postgres.DB) *WorkNoteService { return &WorkNoteService{db} }

// AttestationService implements assess.AttestationService.
type AttestationService struct {
	db  *postgres.DB
	cfg AttestationConfig
}

// NewAttestationService returns the service on db with the installation's attestation
// configuration.
func NewAttestationService(db *postgres.DB, cfg AttestationConfig) *AttestationService {
	return &AttestationService{db, cfg}
}

// PlatformKeyService implements assess.PlatformKeyService.
type PlatformKeyService struct{ db *postgres.DB }

// NewPlatformKeyService returns the service on db.
func NewPlatformKeyService(db *postgres.DB) *PlatformKeyService { return &PlatformKeyService{db} }

// projectToday is the calendar day (UTC) of now against which the area compares due
// dates of projects and assessments and the validity of evidence.
func projectToday(now time.Time) string { return now.UTC().Format(assess.ProjectDateLayout) }

// AttestationConfig is what the attestation documents need of the installation.
type AttestationConfig struct {
	// AppURL is the service's public URL: evidence files are linked under it.
	AppURL string
	// ToolVersion names the service's version in the documents' metadata.
	ToolVersion string
	// ConfirmPasswordFunc checks a user's current password again before a signature with
	// a key the service holds for them (the identity area's check, counted with the
	// failed sign-ins). Without it such signatures are refused.
	ConfirmPasswordFunc func(ctx context.Context, userID, password string, actor assess.Actor) error
}
