package assess

import (
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

// StandardService manages standards, their requirement trees and levels, and their
// lifecycle (standards.go in the store, standards.go in the HTTP layer).
type StandardService interface{}

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
