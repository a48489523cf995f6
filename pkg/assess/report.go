package assess

import (
	"context"
	"time"
)

// ReportKind says what a PDF report is of.
type ReportKind string

// The kinds of report.
const (
	ReportOfAssessment  ReportKind = "assessment"
	ReportOfAttestation ReportKind = "attestation"
)

// Report is everything the PDF report of an assessment or of an attestation shows
// (docs/attestations.md, "PDF reports"), read by the store in one snapshot. pkg/report
// lays it out; it reads nothing else.
type Report struct {
	Kind         ReportKind
	ID           string // the assessment (as_…) or the attestation (at_…)
	AssessmentID string
	Title        string // the assessment's title
	Description  string
	State        string // the assessment's state, or the attestation's
	EntityName   string
	EntityType   string
	ProjectName  string
	Standards    []ReportStandard
	// The assessment's dates: DueDate is YYYY-MM-DD or "".
	DueDate            string
	StartedAt, EndedAt *time.Time
	CreatedAt          time.Time
	// Score is the overall conformance, 0–100: the assessment's, or the attestation's map.
	Score     *float64
	Figures   ReportFigures
	Assessors []string // the team's assessors (people), by name
	Assessees []string

	Requirements []ReportRequirement // in the assessment's order
	// Claims and Evidence are nil when the reader may not see them (OmittedClaims,
	// OmittedEvidence say so in the report).
	Claims          []ReportClaim
	Evidence        []ReportEvidence
	OmittedClaims   bool
	OmittedEvidence bool

	// Attestation only.
	Attestation *ReportAttestation

	// PlatformKeyID is the RFC 7638 thumbprint of the platform key that sealed the
	// attestation, else of the active platform key ("" when the platform never signed).
	PlatformKeyID string
	// AppURL is the service's public URL, for the "how to verify" line ("" leaves paths).
	AppURL      string
	GeneratedAt time.Time
	GeneratedBy string
}

// ReportStandard is a standard of the report with its figures and those of its levels.
type ReportStandard struct {
	ID, Name, Version string
	LevelName         string // the level the assessment is narrowed to, if any
	Figures           ReportFigures
	Levels            []ReportLevel // the standard's levels holding requirements of the assessment
}

// ReportLevel is a level of a standard with the figures of the requirements it holds.
type ReportLevel struct {
	Identifier, Title string
	Figures           ReportFigures
}

// ReportFigures count results and give their conformance score.
type ReportFigures struct {
	Total, Yes, Partial, No, NotApplicable, Unanswered int
	Score                                              *float64 // 0–100; nil when nothing scores
}

// Add counts one result ("" is unanswered).
func (f *ReportFigures) Add(result string) {
	f.Total++
	switch Result(result) {
	case ResultYes:
		f.Yes++
	case ResultPartial:
		f.Partial++
	case ResultNo:
		f.No++
	case ResultNotApplicable:
		f.NotApplicable++
	default:
		f.Unanswered++
	}
	if s := (ResultCounts{Yes: f.Yes, Partial: f.Partial, No: f.No}).Score(); s != nil {
		v := s.Float()
		f.Score = &v
	} else {
		f.Score = nil
	}
}

// ReportRequirement is one requirement with its result; for an attestation also its score
// in the map and the assessor's confidence.
type ReportRequirement struct {
	ID                  string // ar_…
	StandardID          string
	Identifier, Name    string
	Result              string // yes, partial, no, not_applicable or "" (unanswered)
	Rationale           string
	Score               *float64 // attestation: 0–1
	Confidence          *float64 // attestation: 0–1
	ConfidenceRationale string
	Claims              []string // names of the claims about it
	CounterClaims       []string
	EvidenceCount       int
}

// ReportClaim is a claim as the report lists it.
type ReportClaim struct {
	Name, Target, Predicate, Reasoning string
	Counter                            bool
	Requirements                       []string // identifiers of the requirements it is about
	Evidence, CounterEvidence          []string // names
	Mitigations                        []string
}

// ReportEvidence is a piece of evidence with its files.
type ReportEvidence struct {
	Name, State, Author string
	Description         string
	ValidUntil          string
	Files               []ReportFile
}

// ReportFile is a file of evidence, bound by its SHA-256.
type ReportFile struct {
	Filename, SHA256 string
	Size             int64
}

// ReportAttestation is what only the report of an attestation shows.
type ReportAttestation struct {
	Summary, Statement string
	SerialNumber       string
	Assessors          []string // the attesting organisations
	// DocumentSHA256 is the SHA-256 (hex) of the stored CycloneDX document, byte for byte;
	// "" for a draft, which has none.
	DocumentSHA256 string
	FrozenAt       *time.Time
	SealedAt       *time.Time
	SealKeyID      string
	// SealStatus is the verdict on the platform's seal: valid, untrusted, invalid, or ""
	// when not sealed.
	SealStatus    string
	ValidUntil    string
	RescindedAt   *time.Time
	RescindReason string
	Signatories   []ReportSignatory
	// Verified is the whole document's verdict (every signature valid and trusted, the
	// profile followed, not rescinded); Problems are what the verifier found besides.
	Verified bool
	Problems []string
}

// ReportSignatory is a slot of the affirmation and how it was signed and verified.
type ReportSignatory struct {
	Title, Organization string
	Kind                string // electronic, digital, or "" when unsigned
	SignerName          string
	SignedAt            *time.Time
	KeyID               string
	// Verification is the verdict on the signature: valid, untrusted or invalid for a
	// digital one; recorded for an electronic one (the platform's signatures cover it);
	// unsigned.
	Verification string
	Reason       string
}

// The verification states of a signatory that are not a signature's verdict.
const (
	SignatoryUnsigned = "unsigned"
	SignatoryRecorded = "recorded"
)

// ReportService reads the data of PDF reports (pkg/postgres ReportService). A report of
// something the actor may not see is 404, as its JSON reads are.
type ReportService interface {
	AssessmentReport(ctx context.Context, id string, actor Actor) (Report, error)
	AttestationReport(ctx context.Context, id string, actor Actor) (Report, error)
}
