package assess

import "time"

// ExternalReference kinds of CycloneDX (externalReference.type) that a claim may cite.
// The list is checked against the embedded schema in a test of pkg/cyclonedx.

// ClaimReference is an external reference of a claim (CycloneDX externalReference).
type ClaimReference struct {
	Type    string `json:"type" minLength:"1" maxLength:"64" doc:"A CycloneDX externalReference type: website, vcs, issue-tracker, documentation, pentest-report, …"`
	URL     string `json:"url" minLength:"1" maxLength:"2048"`
	Comment string `json:"comment,omitempty" maxLength:"1000"`
}

// ClaimEvidence is a piece of evidence as a claim cites it.
type ClaimEvidence struct {
	ID    string        `json:"id"`
	Name  string        `json:"name"`
	State EvidenceState `json:"state" enum:"in_progress,in_review,claimed,expired"`
}

// Claim is an assessor's assertion about requirements of an assessment (CycloneDX CDXA):
// a target, a predicate, the reasoning, the evidence for and against it and the
// mitigation strategies.
type Claim struct {
	ID                   string           `json:"id"`
	AssessmentID         string           `json:"assessmentId"`
	Name                 string           `json:"name"`
	BOMRef               string           `json:"bomRef,omitempty"`
	Target               string           `json:"target" doc:"Free-text target; the entity's name when targetEntityId is set and this was blank"`
	TargetEntityID       string           `json:"targetEntityId,omitempty"`
	TargetEntityName     string           `json:"targetEntityName,omitempty"`
	Predicate            string           `json:"predicate"`
	Reasoning            string           `json:"reasoning"`
	IsCounterClaim       bool             `json:"isCounterClaim"`
	CountersClaimID      string           `json:"countersClaimId,omitempty" doc:"The claim this counter-claim disputes"`
	Evidence             []ClaimEvidence  `json:"evidence"`
	CounterEvidence      []ClaimEvidence  `json:"counterEvidence"`
	MitigationStrategies []ClaimEvidence  `json:"mitigationStrategies"`
	RequirementIDs       []string         `json:"requirementIds" doc:"Assessment requirements (ar_…) the claim is about"`
	ExternalReferences   []ClaimReference `json:"externalReferences"`
	CreatedBy            string           `json:"createdBy,omitempty"`
	Version              int64            `json:"version" doc:"Optimistic-concurrency version; send it back on update"`
	CreatedAt            time.Time        `json:"createdAt"`
	UpdatedAt            time.Time        `json:"updatedAt"`
}

// ClaimService keeps the claims of assessments (pkg/postgres ClaimService).
type ClaimService interface{}

// WorkNote is a note on an assessment; @username mentions notify the users named.
type WorkNote struct {
	ID           string    `json:"id"`
	AssessmentID string    `json:"assessmentId"`
	Author       *UserRef  `json:"author"`
	Content      string    `json:"content"`
	Mentions     []UserRef `json:"mentions" doc:"Users mentioned with @username who may see the assessment"`
	Version      int64     `json:"version"`
	CreatedAt    time.Time `json:"createdAt"`
	UpdatedAt    time.Time `json:"updatedAt"`
}

// TimelineEntry is one change under an assessment, from the audit log.
type TimelineEntry struct {
	ID         int64          `json:"id"`
	OccurredAt time.Time      `json:"occurredAt"`
	Actor      UserRef        `json:"actor" doc:"Who made the change (id 'system' for the service)"`
	Action     string         `json:"action" doc:"The audit action, e.g. assessment.state_changed"`
	TargetType string         `json:"targetType"`
	TargetID   string         `json:"targetId"`
	Details    map[string]any `json:"details"`
}

// WorkNoteService keeps the work notes and the timeline of assessments (pkg/postgres
// WorkNoteService).
type WorkNoteService interface{}
