package assess

import "time"

// EvidenceState is where a piece of evidence is in its review.
type EvidenceState string

// Evidence states (reference-backend §2.2).
const (
	EvidenceInProgress EvidenceState = "in_progress"
	EvidenceInReview   EvidenceState = "in_review"
	EvidenceClaimed    EvidenceState = "claimed"
	EvidenceExpired    EvidenceState = "expired"
)

// EvidenceLifecycle is the evidence state machine: the author submits it to a reviewer who
// is not the author; the reviewer approves (claimed) or rejects it with a note (back to
// in_progress). Evidence whose valid-until date has passed becomes expired (the expiry
// job); expired evidence can be renewed by its author (new validity, back to in_progress).
// Claimed evidence is locked for good, but it still expires.
var EvidenceLifecycle = NewStateMachine("evidence", []Transition[EvidenceState]{
	{EvidenceInProgress, []EvidenceState{EvidenceInReview, EvidenceExpired}},
	{EvidenceInReview, []EvidenceState{EvidenceClaimed, EvidenceInProgress, EvidenceExpired}},
	{EvidenceClaimed, []EvidenceState{EvidenceExpired}},
	{EvidenceExpired, []EvidenceState{EvidenceInProgress}},
})

// Retention lock reasons: why evidence refuses a change (409 conflict, details code).
const (
	LockClaimed            = "claimed"
	LockLinkedToClaim      = "linked_to_claim"
	LockAssessmentTerminal = "assessment_terminal"
)

// ErrEvidenceLocked refuses a change to locked evidence: 409 conflict whose details carry
// the reason (field "evidence", code = reason). It binds every caller, administrators too.
func ErrEvidenceLocked(reason string) error {
	msg := map[string]string{
		LockClaimed:            "The evidence has been approved (claimed) and is locked.",
		LockLinkedToClaim:      "The evidence is cited by a claim and is locked.",
		LockAssessmentTerminal: "The evidence belongs to a complete, archived or cancelled assessment and is locked.",
	}[reason]
	return &Error{Code: ECodeConflict, Message: msg, Details: []Detail{{Field: "evidence", Code: reason, Message: msg}}}
}

// Evidence is a descriptor of something that shows a requirement is met, with its files.
type Evidence struct {
	ID                string        `json:"id"`
	Name              string        `json:"name"`
	Description       string        `json:"description"`
	Classification    string        `json:"classification"`
	BOMRef            string        `json:"bomRef,omitempty"`
	IsCounterEvidence bool          `json:"isCounterEvidence"`
	State             EvidenceState `json:"state" enum:"in_progress,in_review,claimed,expired"`
	Author            UserRef       `json:"author"`
	Reviewer          *UserRef      `json:"reviewer"`
	CollectedOn       string        `json:"collectedOn,omitempty" doc:"YYYY-MM-DD: when the evidence was gathered"`
	ValidFrom         string        `json:"validFrom,omitempty" doc:"YYYY-MM-DD"`
	ValidUntil        string        `json:"validUntil,omitempty" doc:"YYYY-MM-DD: it expires the day after"`
	SubmittedAt       *time.Time    `json:"submittedAt,omitempty"`
	ReviewedAt        *time.Time    `json:"reviewedAt,omitempty"`
	Locked            string        `json:"locked,omitempty" enum:"claimed,linked_to_claim,assessment_terminal," doc:"Why the evidence refuses changes, if it does"`
	AttachmentCount   int           `json:"attachmentCount"`
	AssessmentCount   int           `json:"assessmentCount" doc:"Assessments it is linked to (those the caller may see)"`
	Tags              []TagRef      `json:"tags"`
	Version           int64         `json:"version" doc:"Optimistic-concurrency version; send it back on update"`
	CreatedAt         time.Time     `json:"createdAt"`
	UpdatedAt         time.Time     `json:"updatedAt"`
}

// EvidenceEvent is the data of evidence.* events.
type EvidenceEvent struct {
	Evidence
	PreviousState EvidenceState `json:"previousState,omitempty" enum:"in_progress,in_review,claimed,expired,"`
	Note          string        `json:"note,omitempty" doc:"The rejection note, on a rejection"`
	AssessmentID  string        `json:"assessmentId,omitempty" doc:"On link and unlink: the assessment"`
	RequirementID string        `json:"requirementId,omitempty" doc:"On link and unlink: the assessment requirement (ar_…)"`
}

// Attachment is a file of a piece of evidence. Files are not encrypted by the service; the
// SHA-256 of the bytes is checked on every download.
type Attachment struct {
	ID          string    `json:"id"`
	EvidenceID  string    `json:"evidenceId"`
	Filename    string    `json:"filename"`
	ContentType string    `json:"contentType" doc:"Detected from the bytes, not taken from the client"`
	SizeBytes   int64     `json:"sizeBytes"`
	SHA256      string    `json:"sha256" doc:"Hex SHA-256 of the content, verified on every download"`
	Provider    string    `json:"provider" enum:"database,s3" doc:"Where the bytes are stored"`
	UploadedBy  *UserRef  `json:"uploadedBy"`
	CreatedAt   time.Time `json:"createdAt"`
}

// AttachmentEvent is the data of evidence.attachment_added and evidence.attachment_removed.
type AttachmentEvent struct {
	EvidenceID   string     `json:"evidenceId"`
	EvidenceName string     `json:"evidenceName"`
	Attachment   Attachment `json:"attachment"`
}

// EvidenceService keeps evidence, its review, notes and links (pkg/postgres EvidenceService).
type EvidenceService interface{}
