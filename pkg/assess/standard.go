package assess

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"
)

// StandardState is where a standard is in its four-eyes lifecycle.
type StandardState string

// Standard states.
const (
	StandardDraft     StandardState = "draft"
	StandardInReview  StandardState = "in_review"
	StandardPublished StandardState = "published"
	StandardRetired   StandardState = "retired"
)

// StandardLifecycle is the standard state machine: a draft is submitted for review; a
// reviewer other than the submitter approves it (published) or rejects it with a reason
// (back to draft); a published standard is retired. Retired is final: a new version is a
// duplicate.
var StandardLifecycle = NewStateMachine("standard", []Transition[StandardState]{
	{StandardDraft, []StandardState{StandardInReview}},
	{StandardInReview, []StandardState{StandardPublished, StandardDraft}},
	{StandardPublished, []StandardState{StandardRetired}},
	{StandardRetired, nil},
})

// StandardSource tells how a standard came to be.
type StandardSource string

// Standard sources.
const (
	SourceManual    StandardSource = "manual"
	SourceImport    StandardSource = "import"
	SourceFeed      StandardSource = "feed"
	SourceDuplicate StandardSource = "duplicate"
)

// ExternalReference is a link from a standard or requirement to an outside resource, as
// CycloneDX externalReferences carry it.
type ExternalReference struct {
	Type    string `json:"type" maxLength:"64" doc:"CycloneDX external reference type, e.g. website, documentation"`
	URL     string `json:"url" maxLength:"2048"`
	Comment string `json:"comment,omitempty" maxLength:"1000"`
}

// Property is a name/value pair a CycloneDX requirement may carry; kept for round trips.
type Property struct {
	Name  string `json:"name" maxLength:"200"`
	Value string `json:"value,omitempty" maxLength:"10000"`
}

// Standard is a versioned catalogue of requirements (OWASP ASVS 5.0.0, NIST SSDF 1.1, …).
// Identifier names the standard across its versions; (identifier, standardVersion) is
// unique, so several versions coexist.
type Standard struct {
	ID                 string              `json:"id"`
	Identifier         string              `json:"identifier" doc:"Stable name of the standard across its versions"`
	StandardVersion    string              `json:"standardVersion" doc:"The standard's own version, e.g. 5.0.0"`
	Name               string              `json:"name"`
	Description        string              `json:"description"`
	Owner              string              `json:"owner" doc:"The organisation that publishes the standard"`
	BOMRef             string              `json:"bomRef,omitempty" doc:"CycloneDX bom-ref, kept from an import and used on export"`
	ExternalReferences []ExternalReference `json:"externalReferences"`
	State              StandardState       `json:"state" enum:"draft,in_review,published,retired"`
	Source             StandardSource      `json:"source" enum:"manual,import,feed,duplicate"`
	DuplicatedFrom     string              `json:"duplicatedFrom,omitempty"`
	Tags               []TagRef            `json:"tags"`
	RequirementCount   int                 `json:"requirementCount"`
	LevelCount         int                 `json:"levelCount"`
	CreatedBy          string              `json:"createdBy,omitempty"`
	SubmittedBy        string              `json:"submittedBy,omitempty"`
	SubmittedAt        *time.Time          `json:"submittedAt,omitempty"`
	ApprovedBy         string              `json:"approvedBy,omitempty"`
	ApprovedAt         *time.Time          `json:"approvedAt,omitempty"`
	RejectedBy         string              `json:"rejectedBy,omitempty"`
	RejectedAt         *time.Time          `json:"rejectedAt,omitempty"`
	RejectionReason    string              `json:"rejectionReason,omitempty" doc:"Why the last review sent it back to draft"`
	RetiredAt          *time.Time          `json:"retiredAt,omitempty"`
	Version            int64               `json:"version" doc:"Optimistic-concurrency version; send it back on update"`
	CreatedAt          time.Time           `json:"createdAt"`
	UpdatedAt          time.Time           `json:"updatedAt"`
}

// Requirement is one node of a standard's requirement tree.
type Requirement struct {
	ID                 string              `json:"id"`
	StandardID         string              `json:"standardId"`
	ParentID           string              `json:"parentId,omitempty" doc:"Absent for a top-level requirement"`
	Identifier         string              `json:"identifier" doc:"Unique within the standard, e.g. V1.2.3"`
	Name               string              `json:"name" doc:"Title (CycloneDX title)"`
	Description        string              `json:"description" doc:"Text (CycloneDX text)"`
	BOMRef             string              `json:"bomRef,omitempty"`
	OpenCRE            []string            `json:"openCre" doc:"OpenCRE identifiers, e.g. CRE:764-507"`
	ExternalReferences []ExternalReference `json:"externalReferences"`
	Properties         []Property          `json:"properties"`
	Position           int                 `json:"position" doc:"Order among its siblings"`
	Levels             []string            `json:"levels" doc:"Ids of the levels that include it"`
	Version            int64               `json:"version" doc:"Optimistic-concurrency version; send it back on update"`
	CreatedAt          time.Time           `json:"createdAt"`
	UpdatedAt          time.Time           `json:"updatedAt"`
}

// Level is a named subset of a standard's requirements (ASVS L1–L3, SAMM maturity levels).
type Level struct {
	ID               string    `json:"id"`
	StandardID       string    `json:"standardId"`
	Identifier       string    `json:"identifier"`
	Title            string    `json:"title"`
	Description      string    `json:"description"`
	BOMRef           string    `json:"bomRef,omitempty"`
	Position         int       `json:"position"`
	RequirementCount int       `json:"requirementCount"`
	Version          int64     `json:"version" doc:"Optimistic-concurrency version; send it back on update"`
	CreatedAt        time.Time `json:"createdAt"`
	UpdatedAt        time.Time `json:"updatedAt"`
}

// NaturalKey returns the key that sorts identifiers the way people read them: every run of
// digits is zero-padded to 10 places and letters are compared without case, so V1.2.10
// sorts after V1.2.9 and v2 after V1. The store keeps it in an indexed column.
func NaturalKey(identifier string) string {
	var b strings.Builder
	b.Grow(len(identifier) + 16)
	digits := make([]rune, 0, 10)
	flush := func() {
		if len(digits) == 0 {
			return
		}
		trimmed := strings.TrimLeft(string(digits), "0")
		if len(trimmed) < 10 {
			b.WriteString(strings.Repeat("0", 10-len(trimmed)))
		}
		b.WriteString(trimmed)
		digits = digits[:0]
	}
	for _, r := range identifier {
		if r >= '0' && r <= '9' {
			digits = append(digits, r)
			continue
		}
		flush()
		b.WriteRune(unicode.ToLower(r))
	}
	flush()
	return b.String()
}

// Limits of catalogue text, in characters.
const (
	maxIdentifierLen  = 200
	maxNameLen        = 500
	maxDescriptionLen = 100000
	maxOwnerLen       = 200
	maxVersionLen     = 100
	// MaxBulkRequirements bounds one bulk write of requirements (a large standard).
	MaxBulkRequirements = 5000
)

// NewStandard is a request to author a standard; it starts as a draft.
type NewStandard struct {
	Identifier         string              `json:"identifier" minLength:"1" maxLength:"200" doc:"Stable name of the standard across its versions, e.g. owasp-asvs"`
	StandardVersion    string              `json:"standardVersion" minLength:"1" maxLength:"100" doc:"The standard's own version, e.g. 5.0.0"`
	Name               string              `json:"name" minLength:"1" maxLength:"500"`
	Description        string              `json:"description,omitempty" maxLength:"100000"`
	Owner              string              `json:"owner,omitempty" maxLength:"200" doc:"The organisation that publishes the standard"`
	ExternalReferences []ExternalReference `json:"externalReferences,omitempty" maxItems:"100"`
	TagIDs             []string            `json:"tagIds,omitempty" maxItems:"50" doc:"Ids from GET /api/v1/tags"`
}

// Validate trims and checks the new standard.
func (n *NewStandard) Validate() error {
	var c checker
	c.identifier("identifier", &n.Identifier)
	c.line("standardVersion", &n.StandardVersion, 1, maxVersionLen)
	c.line("name", &n.Name, 1, maxNameLen)
	c.text("description", &n.Description, maxDescriptionLen)
	c.line("owner", &n.Owner, 0, maxOwnerLen)
	c.references("externalReferences", n.ExternalReferences)
	return c.err("The standard is invalid.")
}

// StandardUpdate changes a standard's metadata (only while it is a draft) or its tags (in
// any state). Absent fields stay as they are.
type StandardUpdate struct {
	Version            int64                `json:"version" minimum:"1"`
	Identifier         *string              `json:"identifier,omitempty" minLength:"1" maxLength:"200"`
	StandardVersion    *string              `json:"standardVersion,omitempty" minLength:"1" maxLength:"100"`
	Name               *string              `json:"name,omitempty" minLength:"1" maxLength:"500"`
	Description        *string              `json:"description,omitempty" maxLength:"100000"`
	Owner              *string              `json:"owner,omitempty" maxLength:"200"`
	ExternalReferences *[]ExternalReference `json:"externalReferences,omitempty" maxItems:"100"`
	TagIDs             *[]string            `json:"tagIds,omitempty" maxItems:"50" doc:"The full tag set; may change in any state"`
}

// Validate trims and checks the fields present.
func (u *StandardUpdate) Validate() error {
	var c checker
	if u.Identifier != nil {
		c.identifier("identifier", u.Identifier)
	}
	if u.StandardVersion != nil {
		c.line("standardVersion", u.StandardVersion, 1, maxVersionLen)
	}
	if u.Name != nil {
		c.line("name", u.Name, 1, maxNameLen)
	}
	if u.Description != nil {
		c.text("description", u.Description, maxDescriptionLen)
	}
	if u.Owner != nil {
		c.line("owner", u.Owner, 0, maxOwnerLen)
	}
	if u.ExternalReferences != nil {
		c.references("externalReferences", *u.ExternalReferences)
	}
	return c.err("The change is invalid.")
}

// ChangesContent reports whether the update touches more than the tags: such an update
// is allowed only while the standard is a draft.
func (u *StandardUpdate) ChangesContent() bool {
	return u.Identifier != nil || u.StandardVersion != nil || u.Name != nil || u.Description != nil ||
		u.Owner != nil || u.ExternalReferences != nil
}

// StandardFilter selects standards for the list.
type StandardFilter struct {
	State      string `query:"state" enum:"draft,in_review,published,retired," doc:"Only standards in this state"`
	Owner      string `query:"owner" maxLength:"200" doc:"Only standards of this owner (exact)"`
	Tag        string `query:"tag" maxLength:"64" doc:"Only standards carrying this tag id"`
	Identifier string `query:"identifier" maxLength:"200" doc:"Only the versions of this identifier"`
	Q          string `query:"q" maxLength:"100" doc:"Matches name, identifier or description (case-insensitive substring)"`
	Sort       string `query:"sort" enum:"name,-createdAt,identifier," doc:"name (default), -createdAt (newest first) or identifier (then version)"`
	PageRequest
}

// RejectRequest sends a standard under review back to its authors.
type RejectRequest struct {
	Reason string `json:"reason" minLength:"1" maxLength:"2000" doc:"Why; kept on the standard as rejectionReason"`
}

// Validate trims the reason, which is required.
func (r *RejectRequest) Validate() error {
	var c checker
	c.text("reason", &r.Reason, 2000)
	if r.Reason == "" {
		c.add("reason", "required", "Say why the standard is sent back.")
	}
	return c.err("The rejection is invalid.")
}

// RetireRequest retires a published standard.
type RetireRequest struct {
	Force bool `json:"force,omitempty" doc:"Retire even though projects or entities still use it"`
}

// DuplicateRequest copies a standard into a new draft version of the same identifier.
type DuplicateRequest struct {
	StandardVersion string `json:"standardVersion" minLength:"1" maxLength:"100" doc:"The version of the copy; unique for the identifier"`
	Name            string `json:"name,omitempty" maxLength:"500" doc:"The copy's name; the original's when absent"`
}

// Validate trims and checks the request.
func (d *DuplicateRequest) Validate() error {
	var c checker
	c.line("standardVersion", &d.StandardVersion, 1, maxVersionLen)
	c.line("name", &d.Name, 0, maxNameLen)
	return c.err("The duplicate request is invalid.")
}

// StandardUsage is what still uses a standard: the projects that include it, the
// entities (not archived) with a compliance policy on it and the assessments (not
// archived) against it, counted, with up to ten names of projects and entities.
// Assessments are only counted: their titles are for those who may see them.
type StandardUsage struct {
	Projects     int
	Entities     int
	Assessments  int
	ProjectNames []string
	EntityNames  []string
}

// InUse reports whether anything uses the standard.
func (u StandardUsage) InUse() bool { return u.Projects+u.Entities+u.Assessments > 0 }

// Error is the refusal to retire a standard in use: 422 business_rule_violation, the
// first detail code in_use with the counts, then one detail per user named.
func (u StandardUsage) Error() error {
	msg := fmt.Sprintf("The standard is used by %d project(s) and %d entity(ies)", u.Projects, u.Entities)
	if u.Assessments > 0 {
		msg += fmt.Sprintf(" and %d assessment(s)", u.Assessments)
	}
	msg += "; retire it with force to retire it anyway."
	details := []Detail{{Field: "force", Code: "in_use", Message: msg}}
	for _, n := range u.ProjectNames {
		details = append(details, Detail{Field: "projects", Code: "in_use", Message: n})
	}
	for _, n := range u.EntityNames {
		details = append(details, Detail{Field: "entities", Code: "in_use", Message: n})
	}
	return &Error{Code: ECodeBusinessRule, Message: msg, Details: details}
}

// Errors of the standards' rules.
var (
	// ErrNotDraft refuses a content change (metadata, requirements, levels) of a standard
	// that is no longer a draft.
	ErrNotDraft = &Error{Code: ECodeConflict, Message: "Only a draft standard can be edited; duplicate it into a new draft version.",
		Details: []Detail{{Field: "state", Code: "not_draft", Message: "Only a draft standard can be edited."}}}
	// ErrFourEyes refuses the submitter's own approval or rejection.
	ErrFourEyes = &Error{Code: ECodeBusinessRule, Message: "Someone other than the submitter must approve or reject the standard.",
		Details: []Detail{{Code: "four_eyes", Message: "The submitter cannot approve or reject their own submission."}}}
)

// StandardService manages standards, their requirement trees and levels, and their
// four-eyes lifecycle (standards.go, requirements.go, levels.go in the store and in the
// HTTP layer).
type StandardService interface {
	// FindStandards returns one page of standards.
	FindStandards(ctx context.Context, f StandardFilter) (Page[Standard], error)
	// FindStandard returns one standard.
	FindStandard(ctx context.Context, id string) (Standard, error)
	// FindStandardVersions returns every version of the standard's identifier, newest first.
	FindStandardVersions(ctx context.Context, id string, page PageRequest) (Page[Standard], error)
	// CreateStandard authors a new draft.
	CreateStandard(ctx context.Context, n NewStandard, actor Actor) (Standard, error)
	// UpdateStandard changes metadata (drafts only) or tags (any state).
	UpdateStandard(ctx context.Context, id string, u StandardUpdate, actor Actor) (Standard, error)
	// DeleteStandard deletes a draft, or a retired standard nothing refers to.
	DeleteStandard(ctx context.Context, id string, actor Actor) error
	// SubmitStandard sends a draft for review.
	SubmitStandard(ctx context.Context, id string, actor Actor) (Standard, error)
	// ApproveStandard publishes a standard under review; not by its submitter.
	ApproveStandard(ctx context.Context, id string, actor Actor) (Standard, error)
	// RejectStandard sends a standard under review back to draft with a reason; not by
	// its submitter.
	RejectStandard(ctx context.Context, id string, r RejectRequest, actor Actor) (Standard, error)
	// RetireStandard retires a published standard, refusing while it is in use unless forced.
	RetireStandard(ctx context.Context, id string, r RetireRequest, actor Actor) (Standard, error)
	// DuplicateStandard deep-copies a standard into a new draft version.
	DuplicateStandard(ctx context.Context, id string, d DuplicateRequest, actor Actor) (Standard, error)
	// FindStandardTree returns the whole requirement tree depth-first, and the levels.
	FindStandardTree(ctx context.Context, id string) (StandardTree, error)
	// StandardRevision is the revision of what the reads of the standard show (its tree,
	// levels and requirements): 404 for an unknown standard.
	StandardRevision(ctx context.Context, id string) (Revision, error)
	// FindRequirements returns one page of a standard's requirements in natural order.
	FindRequirements(ctx context.Context, f RequirementFilter) (Page[Requirement], error)
	// FindRequirement returns one requirement of a standard.
	FindRequirement(ctx context.Context, standardID, id string) (Requirement, error)
	// CreateRequirement adds a requirement to a draft.
	CreateRequirement(ctx context.Context, standardID string, n NewRequirement, actor Actor) (Requirement, error)
	// UpdateRequirement changes a requirement of a draft.
	UpdateRequirement(ctx context.Context, standardID, id string, u RequirementUpdate, actor Actor) (Requirement, error)
	// MoveRequirement reparents and/or reorders a requirement of a draft.
	MoveRequirement(ctx context.Context, standardID, id string, m RequirementMove, actor Actor) (Requirement, error)
	// DeleteRequirement deletes a requirement of a draft with its subtree.
	DeleteRequirement(ctx context.Context, standardID, id string, actor Actor) error
	// WriteRequirements creates or updates many requirements of a draft by identifier.
	WriteRequirements(ctx context.Context, standardID string, b BulkRequirements, actor Actor) (BulkResult, error)
	// FindLevels returns the levels of a standard in order.
	FindLevels(ctx context.Context, standardID string) (Page[Level], error)
	// CreateLevel adds a level to a draft.
	CreateLevel(ctx context.Context, standardID string, n NewLevel, actor Actor) (Level, error)
	// UpdateLevel changes a level of a draft, its requirement set included.
	UpdateLevel(ctx context.Context, standardID, id string, u LevelUpdate, actor Actor) (Level, error)
	// DeleteLevel deletes a level of a draft.
	DeleteLevel(ctx context.Context, standardID, id string, actor Actor) error
}
