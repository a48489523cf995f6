package assess

import (
	"context"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

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
	// LockAffirmationSealed: an attestation citing the evidence is being signed or is
	// sealed; its files and descriptor are what the signatures cover.
	LockAffirmationSealed = "affirmation_sealed"
)

// ErrEvidenceLocked refuses a change to locked evidence: 409 conflict whose details carry
// the reason (field "evidence", code = reason). It binds every caller, administrators too.
func ErrEvidenceLocked(reason string) error {
	msg := map[string]string{
		LockClaimed:            "The evidence has been approved (claimed) and is locked.",
		LockLinkedToClaim:      "The evidence is cited by a claim and is locked.",
		LockAssessmentTerminal: "The evidence belongs to a complete, archived or cancelled assessment and is locked.",
		LockAffirmationSealed:  "An attestation citing the evidence is being signed or is sealed; the evidence is locked.",
	}[reason]
	return &Error{Code: ECodeConflict, Message: msg, Details: []Detail{{Field: "evidence", Code: reason, Message: msg}}}
}

// EvidenceLockFacts are what the retention lock of a piece of evidence is decided from.
type EvidenceLockFacts struct {
	State EvidenceState
	// CitedByClaim: a claim cites it (as evidence, counter-evidence or mitigation).
	CitedByClaim bool
	// AttestationStates are the states of the attestations whose claims cite it.
	AttestationStates []AttestationState
	// AssessmentStates are the states of the assessments it is linked to.
	AssessmentStates []AssessmentState
}

// EvidenceLock returns why evidence refuses changes, the first reason in the contract's
// order (docs/assessments.md, "Retention locks"): an attestation citing it froze it
// (LockAffirmationSealed), it was approved (LockClaimed), a claim cites it
// (LockLinkedToClaim), it is linked to a requirement of a read-only assessment
// (LockAssessmentTerminal). "" when it takes changes.
func EvidenceLock(f EvidenceLockFacts) string {
	switch {
	case slices.ContainsFunc(f.AttestationStates, AttestationFreezesEvidence):
		return LockAffirmationSealed
	case f.State == EvidenceClaimed:
		return LockClaimed
	case f.CitedByClaim:
		return LockLinkedToClaim
	case slices.ContainsFunc(f.AssessmentStates, AssessmentReadOnly):
		return LockAssessmentTerminal
	}
	return ""
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
	Locked            string        `json:"locked,omitempty" enum:"claimed,linked_to_claim,assessment_terminal,affirmation_sealed," doc:"Why the evidence refuses changes, if it does"`
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
	Note          string        `json:"note,omitempty" doc:"The rejection note on a rejection; the note added on evidence.note_added"`
	AssessmentID  string        `json:"assessmentId,omitempty" doc:"On link and unlink: the assessment"`
	RequirementID string        `json:"requirementId,omitempty" doc:"On link and unlink: the assessment requirement (ar_…)"`
}

// Limits of evidence fields.
const (
	EvidenceNameMax           = 300
	EvidenceDescriptionMax    = 10000
	EvidenceClassificationMax = 100
	EvidenceNoteMax           = 10000
	EvidenceExpiringMaxDays   = 3650
)

// EvidenceDateLayout is the form of evidence dates: a calendar day, YYYY-MM-DD.
const EvidenceDateLayout = time.DateOnly

// NewEvidence is a piece of evidence to create; the caller becomes its author.
type NewEvidence struct {
	Name              string   `json:"name" minLength:"1" maxLength:"300"`
	Description       string   `json:"description,omitempty" maxLength:"10000"`
	Classification    string   `json:"classification,omitempty" maxLength:"100" doc:"Free text, e.g. internal, confidential"`
	CollectedOn       string   `json:"collectedOn,omitempty" maxLength:"10" doc:"YYYY-MM-DD: when the evidence was gathered"`
	ValidFrom         string   `json:"validFrom,omitempty" maxLength:"10" doc:"YYYY-MM-DD"`
	ValidUntil        string   `json:"validUntil,omitempty" maxLength:"10" doc:"YYYY-MM-DD, not before validFrom; the evidence expires the day after"`
	IsCounterEvidence bool     `json:"isCounterEvidence,omitempty"`
	TagIDs            []string `json:"tagIds,omitempty" maxItems:"100"`
	RequirementIDs    []string `json:"requirementIds,omitempty" maxItems:"100" doc:"Assessment requirements (ar_…) to link at once; their assessments must be visible and writable"`
}

// Validate trims and checks the evidence: a name of 1–300 characters without control
// characters, a description of at most 10000 and a classification of at most 100
// characters, dates as YYYY-MM-DD with validUntil not before validFrom. Whether the ids
// exist is the store's check.
func (ne *NewEvidence) Validate() error {
	var details []Detail
	var d *Detail
	ne.Name, d = checkEvidenceName(ne.Name)
	details = addTagDetail(details, d)
	ne.Description = strings.TrimSpace(ne.Description)
	details = addTagDetail(details, checkEvidenceDescription(ne.Description))
	ne.Classification, d = checkEvidenceClassification(ne.Classification)
	details = addTagDetail(details, d)
	details = append(details, CheckEvidenceDates(&ne.CollectedOn, &ne.ValidFrom, &ne.ValidUntil)...)
	ne.TagIDs, ne.RequirementIDs = idSet(ne.TagIDs), idSet(ne.RequirementIDs)
	if len(details) > 0 {
		return &Error{Code: ECodeValidation, Message: "The evidence is invalid.", Details: details}
	}
	return nil
}

// EvidenceUpdate changes the descriptor of evidence. Omitted fields stay as they are; an
// empty collectedOn, validFrom or validUntil clears it; tagIds, when present, replaces the
// whole set.
type EvidenceUpdate struct {
	Version           int64     `json:"version" minimum:"1" doc:"The version last read; a stale one is refused with 409 version_conflict"`
	Name              *string   `json:"name,omitempty" minLength:"1" maxLength:"300"`
	Description       *string   `json:"description,omitempty" maxLength:"10000"`
	Classification    *string   `json:"classification,omitempty" maxLength:"100"`
	CollectedOn       *string   `json:"collectedOn,omitempty" maxLength:"10" doc:"YYYY-MM-DD; empty to clear"`
	ValidFrom         *string   `json:"validFrom,omitempty" maxLength:"10" doc:"YYYY-MM-DD; empty to clear"`
	ValidUntil        *string   `json:"validUntil,omitempty" maxLength:"10" doc:"YYYY-MM-DD; empty to clear. On expired evidence, a day not yet passed (or none) renews it"`
	IsCounterEvidence *bool     `json:"isCounterEvidence,omitempty"`
	TagIDs            *[]string `json:"tagIds,omitempty" maxItems:"100" doc:"The whole set"`
}

// Validate trims and checks the fields present. The dates are checked for form here; the
// store checks validUntil against the validFrom the evidence ends up with.
func (u *EvidenceUpdate) Validate() error {
	var details []Detail
	if u.Name != nil {
		n, d := checkEvidenceName(*u.Name)
		u.Name = &n
		details = addTagDetail(details, d)
	}
	if u.Description != nil {
		trimPtr(u.Description)
		details = addTagDetail(details, checkEvidenceDescription(*u.Description))
	}
	if u.Classification != nil {
		c, d := checkEvidenceClassification(*u.Classification)
		u.Classification = &c
		details = addTagDetail(details, d)
	}
	for _, f := range []struct {
		field string
		v     *string
	}{{"collectedOn", u.CollectedOn}, {"validFrom", u.ValidFrom}, {"validUntil", u.ValidUntil}} {
		if f.v != nil {
			details = addTagDetail(details, checkProjectDate(f.field, f.v))
		}
	}
	if u.TagIDs != nil {
		*u.TagIDs = idSet(*u.TagIDs)
	}
	if len(details) > 0 {
		return &Error{Code: ECodeValidation, Message: "The evidence is invalid.", Details: details}
	}
	return nil
}

// CheckEvidenceDates checks the form of the three dates (empty means none) and that
// validUntil is not before validFrom; the details name the field at fault.
func CheckEvidenceDates(collectedOn, validFrom, validUntil *string) []Detail {
	var details []Detail
	details = addTagDetail(details, checkProjectDate("collectedOn", collectedOn))
	details = addTagDetail(details, checkProjectDate("validFrom", validFrom))
	details = addTagDetail(details, checkProjectDate("validUntil", validUntil))
	if len(details) == 0 && *validFrom != "" && *validUntil != "" && *validUntil < *validFrom {
		details = append(details, Detail{Field: "validUntil", Code: "before_valid_from", Message: "validUntil cannot be before validFrom."})
	}
	return details
}

// EvidenceSubmit hands evidence to a reviewer.
type EvidenceSubmit struct {
	Version    int64  `json:"version" minimum:"1" doc:"The version last read; a stale one is refused with 409 version_conflict"`
	ReviewerID string `json:"reviewerId" minLength:"1" maxLength:"64" doc:"An active user holding evidence.review, not the author"`
}

// Validate trims the reviewer id and requires it.
func (s *EvidenceSubmit) Validate() error {
	s.ReviewerID = strings.TrimSpace(s.ReviewerID)
	if s.ReviewerID == "" {
		return &Error{Code: ECodeValidation, Message: "Name the reviewer.",
			Details: []Detail{{Field: "reviewerId", Code: "required", Message: "A user id."}}}
	}
	return nil
}

// EvidenceReview approves evidence in review.
type EvidenceReview struct {
	Version int64 `json:"version" minimum:"1" doc:"The version last read; a stale one is refused with 409 version_conflict"`
}

// EvidenceReject rejects evidence in review with a note for its author.
type EvidenceReject struct {
	Version int64  `json:"version" minimum:"1" doc:"The version last read; a stale one is refused with 409 version_conflict"`
	Note    string `json:"note" minLength:"1" maxLength:"10000" doc:"Why: kept as a note of kind rejection"`
}

// Validate trims the note and checks its length (1–10000 characters).
func (r *EvidenceReject) Validate() error {
	r.Note = strings.TrimSpace(r.Note)
	if d := checkNoteContent("note", r.Note); d != nil {
		return &Error{Code: ECodeValidation, Message: "The rejection needs a note.", Details: []Detail{*d}}
	}
	return nil
}

// Evidence review rule codes (422 business_rule_violation details).
const (
	// CodeFourEyes: the author of evidence can never review it.
	CodeFourEyes = "four_eyes"
	// CodeReviewerCannotReview: the reviewer named is not an active user holding
	// evidence.review.
	CodeReviewerCannotReview = "reviewer_cannot_review"
	// CodeNotReviewer: only the reviewer the evidence was submitted to may approve or
	// reject it.
	CodeNotReviewer = "not_reviewer"
	// CodeInReview: evidence in review keeps its descriptor until it is approved or
	// rejected (409 conflict).
	CodeInReview = "in_review"
)

// EvidenceRuleError is the 422 business_rule_violation of an evidence review rule.
func EvidenceRuleError(field, code, msg string) error {
	return &Error{Code: ECodeBusinessRule, Message: msg, Details: []Detail{{Field: field, Code: code, Message: msg}}}
}

// ErrEvidenceInReview refuses a descriptor change while the evidence is in review.
var ErrEvidenceInReview = &Error{Code: ECodeConflict, Message: "The evidence is in review; it changes after the reviewer approves or rejects it.",
	Details: []Detail{{Field: "state", Code: CodeInReview, Message: "Wait for the review, or ask the reviewer to reject it."}}}

// ErrEvidenceNotInReview refuses an approval or rejection of evidence that is not in
// review: 409 invalid_state_transition whose details list the moves its state allows.
func ErrEvidenceNotInReview(from EvidenceState) error {
	details := []Detail{}
	for _, s := range EvidenceLifecycle.Allowed(from) {
		details = append(details, Detail{Field: "state", Code: "allowed", Message: string(s)})
	}
	return &Error{Code: ECodeInvalidState, Message: "The evidence is " + string(from) + "; only evidence in review can be approved or rejected.",
		Details: details}
}

// Kinds of evidence notes.
const (
	EvidenceNoteKindNote      = "note"
	EvidenceNoteKindRejection = "rejection"
)

// EvidenceNote is one entry of the discussion of a piece of evidence.
type EvidenceNote struct {
	ID         string    `json:"id"`
	EvidenceID string    `json:"evidenceId"`
	Author     *UserRef  `json:"author" doc:"null when the author's account was deleted"`
	Kind       string    `json:"kind" enum:"note,rejection" doc:"rejection: written by the reviewer with a rejection"`
	Content    string    `json:"content"`
	CreatedAt  time.Time `json:"createdAt"`
}

// NewEvidenceNote is a note to add to evidence.
type NewEvidenceNote struct {
	Content string `json:"content" minLength:"1" maxLength:"10000"`
}

// Validate trims the content and checks its length (1–10000 characters).
func (n *NewEvidenceNote) Validate() error {
	n.Content = strings.TrimSpace(n.Content)
	if d := checkNoteContent("content", n.Content); d != nil {
		return &Error{Code: ECodeValidation, Message: "The note is invalid.", Details: []Detail{*d}}
	}
	return nil
}

// EvidenceLink is a requirement of an assessment that evidence is linked to.
type EvidenceLink struct {
	AssessmentID            string          `json:"assessmentId"`
	AssessmentTitle         string          `json:"assessmentTitle"`
	AssessmentState         AssessmentState `json:"assessmentState" enum:"new,pending,in_progress,on_hold,cancelled,complete,archived"`
	AssessmentRequirementID string          `json:"assessmentRequirementId"`
	RequirementIdentifier   string          `json:"requirementIdentifier"`
	RequirementName         string          `json:"requirementName"`
}

// NewEvidenceLink names the assessment requirement to link evidence to.
type NewEvidenceLink struct {
	AssessmentRequirementID string `json:"assessmentRequirementId" minLength:"1" maxLength:"64" doc:"ar_…"`
}

// Validate trims the id.
func (l *NewEvidenceLink) Validate() error {
	l.AssessmentRequirementID = strings.TrimSpace(l.AssessmentRequirementID)
	return nil
}

// Relations of evidence to a claim citing it.
const (
	EvidenceRelationEvidence        = "evidence"
	EvidenceRelationCounterEvidence = "counter_evidence"
	EvidenceRelationMitigation      = "mitigation"
)

// EvidenceClaim is a claim citing a piece of evidence, and how.
type EvidenceClaim struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	AssessmentID string `json:"assessmentId"`
	Relation     string `json:"relation" enum:"evidence,counter_evidence,mitigation"`
}

// EvidenceFilter selects evidence for the evidence list.
type EvidenceFilter struct {
	State          string `query:"state" enum:"in_progress,in_review,claimed,expired," doc:"Only evidence in this state"`
	Author         string `query:"author" maxLength:"64" doc:"Only evidence by this author (user id, or me)"`
	Reviewer       string `query:"reviewer" maxLength:"64" doc:"Only evidence with this reviewer (user id, or me)"`
	Assessment     string `query:"assessment" maxLength:"64" doc:"Only evidence linked to this assessment (as_…)"`
	Requirement    string `query:"requirement" maxLength:"64" doc:"Only evidence linked to this assessment requirement (ar_…)"`
	Tag            string `query:"tag" maxLength:"64" doc:"Only evidence carrying this tag (id)"`
	Q              string `query:"q" maxLength:"100" doc:"Matches name or description (case-insensitive substring)"`
	ExpiringWithin int    `query:"expiringWithin" minimum:"0" maximum:"3650" doc:"Only evidence whose valid-until day is today or within this many days (not yet expired)"`
	Counter        bool   `query:"counter" doc:"true: only counter-evidence"`
	Sort           string `query:"sort" enum:"-createdAt,name,validUntil," doc:"-createdAt (default, newest first), name, or validUntil (soonest first, undated last)"`
	PageRequest
}

// EvidenceFilterMe stands for the caller in the author and reviewer filters.
const EvidenceFilterMe = "me"

// checkEvidenceName trims a name and checks it: 1–300 characters, no control characters.
func checkEvidenceName(name string) (string, *Detail) {
	name = strings.TrimSpace(name)
	switch n := utf8.RuneCountInString(name); {
	case n == 0:
		return name, &Detail{Field: "name", Code: "required", Message: "Name the evidence."}
	case n > EvidenceNameMax:
		return name, &Detail{Field: "name", Code: "too_long", Message: "At most 300 characters."}
	case strings.ContainsFunc(name, unicode.IsControl):
		return name, &Detail{Field: "name", Code: "invalid", Message: "A name cannot contain control characters."}
	}
	return name, nil
}

// checkEvidenceDescription checks the length of a (trimmed) description.
func checkEvidenceDescription(s string) *Detail {
	if utf8.RuneCountInString(s) > EvidenceDescriptionMax {
		return &Detail{Field: "description", Code: "too_long", Message: "At most 10000 characters."}
	}
	return nil
}

// checkEvidenceClassification trims a classification and checks it: at most 100
// characters, no control characters; empty means none.
func checkEvidenceClassification(s string) (string, *Detail) {
	s = strings.TrimSpace(s)
	switch {
	case utf8.RuneCountInString(s) > EvidenceClassificationMax:
		return s, &Detail{Field: "classification", Code: "too_long", Message: "At most 100 characters."}
	case strings.ContainsFunc(s, unicode.IsControl):
		return s, &Detail{Field: "classification", Code: "invalid", Message: "A classification cannot contain control characters."}
	}
	return s, nil
}

// checkNoteContent checks the length of a (trimmed) note: 1–10000 characters.
func checkNoteContent(field, s string) *Detail {
	switch n := utf8.RuneCountInString(s); {
	case n == 0:
		return &Detail{Field: field, Code: "required", Message: "Write the note."}
	case n > EvidenceNoteMax:
		return &Detail{Field: field, Code: "too_long", Message: "At most 10000 characters."}
	}
	return nil
}

// EvidenceRenews reports whether expired evidence whose validity ends on validUntil
// (YYYY-MM-DD, "" for no end) is valid again on day today: the day has not passed.
func EvidenceRenews(validUntil, today string) bool {
	return validUntil == "" || validUntil >= today
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
// Every method applies object-level access for actor: evidence the actor may not see is
// 404, on reads and writes alike, and lists leave it out.
type EvidenceService interface {
	// FindEvidenceList returns one page of the evidence actor may see.
	FindEvidenceList(ctx context.Context, f EvidenceFilter, actor Actor) (Page[Evidence], error)
	// FindEvidence returns one piece of evidence.
	FindEvidence(ctx context.Context, id string, actor Actor) (Evidence, error)
	// CreateEvidence creates evidence authored by actor (in_progress), linked at once to the
	// assessment requirements it names.
	CreateEvidence(ctx context.Context, ne NewEvidence, actor Actor) (Evidence, error)
	// UpdateEvidence changes the descriptor; giving expired evidence a validity that has
	// not ended renews it.
	UpdateEvidence(ctx context.Context, id string, upd EvidenceUpdate, actor Actor) (Evidence, error)
	// DeleteEvidence deletes evidence that is not locked, with its notes, links and files.
	DeleteEvidence(ctx context.Context, id string, version int64, actor Actor) error
	// SubmitEvidence hands evidence in progress to a reviewer who is not its author.
	SubmitEvidence(ctx context.Context, id string, sub EvidenceSubmit, actor Actor) (Evidence, error)
	// ApproveEvidence is the assigned reviewer's approval: the evidence becomes claimed.
	ApproveEvidence(ctx context.Context, id string, r EvidenceReview, actor Actor) (Evidence, error)
	// RejectEvidence is the assigned reviewer's rejection with a note: back to in_progress.
	RejectEvidence(ctx context.Context, id string, r EvidenceReject, actor Actor) (Evidence, error)
	// FindEvidenceNotes returns one page of the notes of evidence, newest first.
	FindEvidenceNotes(ctx context.Context, id string, page PageRequest, actor Actor) (Page[EvidenceNote], error)
	// AddEvidenceNote adds a note to evidence that is not locked.
	AddEvidenceNote(ctx context.Context, id string, n NewEvidenceNote, actor Actor) (EvidenceNote, error)
	// FindEvidenceLinks returns the assessment requirements evidence is linked to, in the
	// assessments actor may see.
	FindEvidenceLinks(ctx context.Context, id string, actor Actor) ([]EvidenceLink, error)
	// LinkEvidence links evidence to a requirement of a visible, writable assessment.
	LinkEvidence(ctx context.Context, id string, l NewEvidenceLink, actor Actor) (EvidenceLink, error)
	// UnlinkEvidence removes a link of evidence that is not locked.
	UnlinkEvidence(ctx context.Context, id, requirementID string, actor Actor) error
	// FindEvidenceClaims returns a page of the claims citing evidence, in the assessments
	// actor may see, oldest first.
	FindEvidenceClaims(ctx context.Context, id string, page PageRequest, actor Actor) (Page[EvidenceClaim], error)
}

// EvidenceExpiry is the periodic expiry of evidence (the worker's job; pkg/postgres
// EvidenceService).
type EvidenceExpiry interface {
	// ExpireEvidence marks evidence whose valid-until day has passed as expired
	// (evidence.expired) and announces, once per validity, evidence that reaches its
	// valid-until day within reminderDays (evidence.expiring).
	ExpireEvidence(ctx context.Context, reminderDays int) (EvidenceExpiryRun, error)
}

// EvidenceExpiryRun counts what one run of the expiry job did.
type EvidenceExpiryRun struct {
	Expired  int64 // evidence that became expired
	Reminded int64 // evidence announced as expiring soon
	// AttestationsReminded counts sealed attestations announced as expiring soon: the
	// earliest valid-until day of the evidence they cite is near.
	AttestationsReminded int64
}
