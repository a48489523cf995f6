package assess

import (
	"context"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// ExternalReferenceTypes are the kinds of CycloneDX 1.6 externalReference (its type enum)
// that a claim may cite. A test of pkg/cyclonedx holds the list equal to the enum of the
// embedded schema.
var ExternalReferenceTypes = []string{
	"vcs", "issue-tracker", "website", "advisories", "bom", "mailing-list", "social", "chat", "documentation",
	"support", "source-distribution", "distribution", "distribution-intake", "license", "build-meta",
	"build-system", "release-notes", "security-contact", "model-card", "log", "configuration", "evidence",
	"formulation", "attestation", "threat-model", "adversary-model", "risk-assessment",
	"vulnerability-assertion", "exploitability-statement", "pentest-report", "static-analysis-report",
	"dynamic-analysis-report", "runtime-analysis-report", "component-analysis-report", "maturity-report",
	"certification-report", "codified-infrastructure", "quality-metrics", "poam", "electronic-signature",
	"digital-signature", "rfc-9116", "other",
}

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

// ClaimRelation is how a claim cites a piece of evidence.
type ClaimRelation string

// The ways a claim cites evidence (claim_evidence.kind).
const (
	ClaimRelationEvidence        ClaimRelation = "evidence"
	ClaimRelationCounterEvidence ClaimRelation = "counter_evidence"
	ClaimRelationMitigation      ClaimRelation = "mitigation"
)

// Claim limits.
const (
	maxClaimEvidence     = 100
	maxClaimRequirements = 500
	maxClaimReferences   = 50
	maxReferenceURL      = 2048
)

// NewClaim is a claim to add to an assessment.
type NewClaim struct {
	Name                  string           `json:"name" minLength:"1" maxLength:"300"`
	Target                string           `json:"target,omitempty" maxLength:"1000" doc:"What the claim is about, in words; required unless targetEntityId is given"`
	TargetEntityID        string           `json:"targetEntityId,omitempty" maxLength:"64" doc:"The entity the claim is about (en_…)"`
	Predicate             string           `json:"predicate" minLength:"1" maxLength:"10000" doc:"What is claimed about the target"`
	Reasoning             string           `json:"reasoning,omitempty" maxLength:"20000" doc:"Why the evidence supports the predicate"`
	IsCounterClaim        bool             `json:"isCounterClaim,omitempty"`
	CountersClaimID       string           `json:"countersClaimId,omitempty" maxLength:"64" doc:"A claim of the same assessment that this one disputes; makes it a counter-claim"`
	EvidenceIDs           []string         `json:"evidenceIds,omitempty" maxItems:"100" doc:"Evidence supporting the claim (ev_…), visible to the caller"`
	CounterEvidenceIDs    []string         `json:"counterEvidenceIds,omitempty" maxItems:"100" doc:"Evidence against the claim"`
	MitigationEvidenceIDs []string         `json:"mitigationEvidenceIds,omitempty" maxItems:"100" doc:"Evidence of mitigation strategies"`
	RequirementIDs        []string         `json:"requirementIds,omitempty" maxItems:"500" doc:"Requirements of this assessment (ar_…) the claim is about"`
	ExternalReferences    []ClaimReference `json:"externalReferences,omitempty" maxItems:"50"`
}

// Validate normalises the claim (trimmed text, de-duplicated ids, a countersClaimId
// making it a counter-claim) and checks what needs no database: a name of 1–300
// characters, a predicate, a target or a target entity, external references of a
// CycloneDX type with an http(s) URL. Whether the ids exist and may be cited is the
// store's check.
func (in *NewClaim) Validate() error {
	in.Name, in.Target = strings.TrimSpace(in.Name), strings.TrimSpace(in.Target)
	in.TargetEntityID, in.CountersClaimID = strings.TrimSpace(in.TargetEntityID), strings.TrimSpace(in.CountersClaimID)
	in.Predicate, in.Reasoning = strings.TrimSpace(in.Predicate), strings.TrimSpace(in.Reasoning)
	if in.CountersClaimID != "" {
		in.IsCounterClaim = true
	}
	var d []Detail
	d = claimNameProblems(d, in.Name)
	d = claimTextProblems(d, "predicate", in.Predicate, 10000, true)
	d = claimTextProblems(d, "reasoning", in.Reasoning, 20000, false)
	d = claimTextProblems(d, "target", in.Target, 1000, false)
	if in.Target == "" && in.TargetEntityID == "" {
		d = append(d, errClaimTargetRequired)
	}
	in.EvidenceIDs, d = claimIDProblems(d, "evidenceIds", in.EvidenceIDs, maxClaimEvidence)
	in.CounterEvidenceIDs, d = claimIDProblems(d, "counterEvidenceIds", in.CounterEvidenceIDs, maxClaimEvidence)
	in.MitigationEvidenceIDs, d = claimIDProblems(d, "mitigationEvidenceIds", in.MitigationEvidenceIDs, maxClaimEvidence)
	in.RequirementIDs, d = claimIDProblems(d, "requirementIds", in.RequirementIDs, maxClaimRequirements)
	d = claimReferenceProblems(d, in.ExternalReferences)
	if len(d) > 0 {
		return &Error{Code: ECodeValidation, Message: "The claim is invalid.", Details: d}
	}
	return nil
}

// ClaimUpdate changes a claim: absent fields stay, arrays replace the whole set.
type ClaimUpdate struct {
	Version               int64             `json:"version" minimum:"1" doc:"The version last read; a stale one is refused with 409 version_conflict"`
	Name                  *string           `json:"name,omitempty" minLength:"1" maxLength:"300"`
	Target                *string           `json:"target,omitempty" maxLength:"1000"`
	TargetEntityID        *string           `json:"targetEntityId,omitempty" maxLength:"64" doc:"An entity id; empty removes the target entity"`
	Predicate             *string           `json:"predicate,omitempty" minLength:"1" maxLength:"10000"`
	Reasoning             *string           `json:"reasoning,omitempty" maxLength:"20000"`
	IsCounterClaim        *bool             `json:"isCounterClaim,omitempty" doc:"false also removes countersClaimId"`
	CountersClaimID       *string           `json:"countersClaimId,omitempty" maxLength:"64" doc:"A claim of the same assessment; empty removes it"`
	EvidenceIDs           *[]string         `json:"evidenceIds,omitempty" maxItems:"100"`
	CounterEvidenceIDs    *[]string         `json:"counterEvidenceIds,omitempty" maxItems:"100"`
	MitigationEvidenceIDs *[]string         `json:"mitigationEvidenceIds,omitempty" maxItems:"100"`
	RequirementIDs        *[]string         `json:"requirementIds,omitempty" maxItems:"500"`
	ExternalReferences    *[]ClaimReference `json:"externalReferences,omitempty" maxItems:"50"`
}

// Validate normalises the update as NewClaim.Validate does, field by field. Whether the
// claim keeps a target (text or entity) once the update is applied is checked by Apply.
func (u *ClaimUpdate) Validate() error {
	var d []Detail
	trim := func(p *string) {
		if p != nil {
			*p = strings.TrimSpace(*p)
		}
	}
	trim(u.Name)
	trim(u.Target)
	trim(u.TargetEntityID)
	trim(u.Predicate)
	trim(u.Reasoning)
	trim(u.CountersClaimID)
	if u.Name != nil {
		d = claimNameProblems(d, *u.Name)
	}
	if u.Predicate != nil {
		d = claimTextProblems(d, "predicate", *u.Predicate, 10000, true)
	}
	if u.Reasoning != nil {
		d = claimTextProblems(d, "reasoning", *u.Reasoning, 20000, false)
	}
	if u.Target != nil {
		d = claimTextProblems(d, "target", *u.Target, 1000, false)
	}
	if u.IsCounterClaim != nil && !*u.IsCounterClaim && u.CountersClaimID != nil && *u.CountersClaimID != "" {
		d = append(d, Detail{Field: "isCounterClaim", Code: "invalid", Message: "A claim that counters another is a counter-claim."})
	}
	for _, ids := range []struct {
		field string
		p     *[]string
		max   int
	}{{"evidenceIds", u.EvidenceIDs, maxClaimEvidence}, {"counterEvidenceIds", u.CounterEvidenceIDs, maxClaimEvidence},
		{"mitigationEvidenceIds", u.MitigationEvidenceIDs, maxClaimEvidence}, {"requirementIds", u.RequirementIDs, maxClaimRequirements}} {
		if ids.p != nil {
			*ids.p, d = claimIDProblems(d, ids.field, *ids.p, ids.max)
		}
	}
	if u.ExternalReferences != nil {
		d = claimReferenceProblems(d, *u.ExternalReferences)
	}
	if len(d) > 0 {
		return &Error{Code: ECodeValidation, Message: "The claim change is invalid.", Details: d}
	}
	return nil
}

// Apply writes the scalar fields of the update onto c (a claim as stored) and checks the
// result still has a target: the text, or an entity.
func (u *ClaimUpdate) Apply(c *Claim) error {
	set := func(dst *string, p *string) {
		if p != nil {
			*dst = *p
		}
	}
	set(&c.Name, u.Name)
	set(&c.Target, u.Target)
	set(&c.TargetEntityID, u.TargetEntityID)
	set(&c.Predicate, u.Predicate)
	set(&c.Reasoning, u.Reasoning)
	if u.IsCounterClaim != nil {
		c.IsCounterClaim = *u.IsCounterClaim
		if !c.IsCounterClaim {
			c.CountersClaimID = ""
		}
	}
	if u.CountersClaimID != nil {
		c.CountersClaimID = *u.CountersClaimID
		c.IsCounterClaim = c.IsCounterClaim || c.CountersClaimID != ""
	}
	if c.Target == "" && c.TargetEntityID == "" {
		return &Error{Code: ECodeValidation, Message: "The claim change is invalid.", Details: []Detail{errClaimTargetRequired}}
	}
	return nil
}

var errClaimTargetRequired = Detail{Field: "target", Code: "required", Message: "Name the target in words or give targetEntityId."}

func claimNameProblems(d []Detail, name string) []Detail {
	if n := utf8.RuneCountInString(name); n < 1 || n > 300 {
		d = append(d, Detail{Field: "name", Code: "invalid", Message: "Between 1 and 300 characters."})
	}
	return d
}

func claimTextProblems(d []Detail, field, s string, max int, required bool) []Detail {
	switch n := utf8.RuneCountInString(s); {
	case required && n == 0:
		d = append(d, Detail{Field: field, Code: "required", Message: "Required."})
	case n > max:
		d = append(d, Detail{Field: field, Code: "too_long", Message: "At most " + strconv.Itoa(max) + " characters."})
	}
	return d
}

// claimIDProblems trims and de-duplicates ids (keeping the first of each) and checks
// their number; malformed ids are left for the store, which answers them as unknown.
func claimIDProblems(d []Detail, field string, ids []string, max int) ([]string, []Detail) {
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		id = strings.TrimSpace(id)
		if id != "" && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	if len(out) > max {
		d = append(d, Detail{Field: field, Code: "too_many", Message: "At most " + strconv.Itoa(max) + "."})
	}
	return out, d
}

// claimReferenceProblems checks external references: a CycloneDX externalReference type,
// an absolute http or https URL of at most 2048 characters, a comment of at most 1000.
func claimReferenceProblems(d []Detail, refs []ClaimReference) []Detail {
	if len(refs) > maxClaimReferences {
		d = append(d, Detail{Field: "externalReferences", Code: "too_many", Message: "At most " + strconv.Itoa(maxClaimReferences) + "."})
	}
	for i := range refs {
		r := &refs[i]
		field := "externalReferences[" + strconv.Itoa(i) + "]"
		r.Type, r.URL, r.Comment = strings.TrimSpace(r.Type), strings.TrimSpace(r.URL), strings.TrimSpace(r.Comment)
		if !slices.Contains(ExternalReferenceTypes, r.Type) {
			d = append(d, Detail{Field: field + ".type", Code: "invalid", Message: "A CycloneDX externalReference type, such as website, vcs, documentation or pentest-report."})
		}
		if !webURL(r.URL) {
			d = append(d, Detail{Field: field + ".url", Code: "invalid", Message: "An http or https URL of at most 2048 characters."})
		}
		if utf8.RuneCountInString(r.Comment) > 1000 {
			d = append(d, Detail{Field: field + ".comment", Code: "too_long", Message: "At most 1000 characters."})
		}
	}
	return d
}

// webURL reports whether s is an absolute http(s) URL with a host, of at most 2048 bytes.
func webURL(s string) bool {
	if s == "" || len(s) > maxReferenceURL || strings.ContainsAny(s, " \t\r\n") {
		return false
	}
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.Hostname() != ""
}

// ClaimFilter pages the claims of an assessment, oldest first, and narrows them.
type ClaimFilter struct {
	PageRequest
	Requirement string `query:"requirement" maxLength:"64" doc:"Only claims about this requirement of the assessment (ar_…)"`
}

// ClaimService keeps the claims of assessments (pkg/postgres ClaimService). Claims are
// visible exactly when their assessment is (404 otherwise) and change only while it takes
// changes (409 read_only).
type ClaimService interface {
	// FindClaims returns a page of the claims of an assessment, oldest first.
	FindClaims(ctx context.Context, assessmentID string, f ClaimFilter, actor Actor) (Page[Claim], error)
	// FindClaim returns one claim.
	FindClaim(ctx context.Context, id string, actor Actor) (Claim, error)
	// CreateClaim adds a claim to an assessment; cited evidence must be visible to the
	// actor (422 unknown_evidence), requirements must be the assessment's (422
	// unknown_requirement).
	CreateClaim(ctx context.Context, assessmentID string, in NewClaim, actor Actor) (Claim, error)
	// UpdateClaim changes a claim with optimistic concurrency.
	UpdateClaim(ctx context.Context, id string, upd ClaimUpdate, actor Actor) (Claim, error)
	// DeleteClaim deletes a claim; counter-claims of it stay, countering nothing.
	DeleteClaim(ctx context.Context, id string, version int64, actor Actor) error
}

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
	TargetName string         `json:"targetName" doc:"What the change was about, for people: the name it had when the change was recorded (a requirement by its identifier, such as V1.2.3), else its current name; empty when it has none"`
	TargetLink string         `json:"targetLink" doc:"Path of the record's page in the web UI; empty when it has none or no longer exists"`
	Details    map[string]any `json:"details"`
}

// NewWorkNote is a note to write on an assessment.
type NewWorkNote struct {
	Content string `json:"content" minLength:"1" maxLength:"10000" doc:"Plain text; @username mentions notify those users if they may see the assessment"`
}

// Validate trims the content and checks its length (1–10000 characters).
func (in *NewWorkNote) Validate() error {
	in.Content = strings.TrimSpace(in.Content)
	return workNoteContentProblem(in.Content)
}

// WorkNoteUpdate replaces the content of one's own note.
type WorkNoteUpdate struct {
	Version int64  `json:"version" minimum:"1" doc:"The version last read; a stale one is refused with 409 version_conflict"`
	Content string `json:"content" minLength:"1" maxLength:"10000"`
}

// Validate trims the content and checks its length (1–10000 characters).
func (u *WorkNoteUpdate) Validate() error {
	u.Content = strings.TrimSpace(u.Content)
	return workNoteContentProblem(u.Content)
}

func workNoteContentProblem(content string) error {
	if n := utf8.RuneCountInString(content); n < 1 || n > 10000 {
		return &Error{Code: ECodeValidation, Message: "The note is invalid.",
			Details: []Detail{{Field: "content", Code: "invalid", Message: "Between 1 and 10000 characters."}}}
	}
	return nil
}

// ErrNotNoteAuthor refuses a change to someone else's work note.
var ErrNotNoteAuthor = &Error{Code: ECodeBusinessRule, Message: "Only the author of a note may change or delete it.",
	Details: []Detail{{Field: "id", Code: "not_author", Message: "Only the author of a note may change or delete it."}}}

// maxMentions bounds the mentions of one note that are resolved and notified.
const maxMentions = 50

// ParseMentions returns the usernames mentioned in content as @username, lower-cased,
// each once, in the order of their first mention (at most 50). A mention starts with an
// @ at the beginning of the text or after a character that is not part of a username
// (so e-mail addresses mention nobody) and runs over letters, digits, '.', '_' and '-';
// trailing dots are punctuation ("thanks @bob."), not part of the name.
func ParseMentions(content string) []string {
	var out []string
	runes := []rune(content)
	for i := 0; i < len(runes); i++ {
		if runes[i] != '@' || (i > 0 && mentionRune(runes[i-1])) {
			continue
		}
		j := i + 1
		for j < len(runes) && mentionRune(runes[j]) {
			j++
		}
		name := strings.TrimRight(string(runes[i+1:j]), ".")
		i = j - 1
		name = strings.ToLower(name)
		if name != "" && !slices.Contains(out, name) {
			out = append(out, name)
			if len(out) == maxMentions {
				break
			}
		}
	}
	return out
}

func mentionRune(r rune) bool {
	return r == '.' || r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}

// WorkNoteFilter pages the work notes of an assessment, newest first.
type WorkNoteFilter struct {
	PageRequest
}

// TimelineFilter pages the timeline of an assessment, newest first.
type TimelineFilter struct {
	PageRequest
}

// MentionableFilter narrows the users one can mention on an assessment.
type MentionableFilter struct {
	Q string `query:"q" maxLength:"100" doc:"Prefix of the username or display name (case-insensitive)"`
}

// MentionableList is the list of users one can mention on an assessment (at most 50).
type MentionableList struct {
	Items []UserRef `json:"items"`
}

// WorkNoteService keeps the work notes and the timeline of assessments (pkg/postgres
// WorkNoteService). Everything is visible exactly when the assessment is (404 otherwise).
type WorkNoteService interface {
	// FindWorkNotes returns a page of the notes of an assessment, newest first.
	FindWorkNotes(ctx context.Context, assessmentID string, f WorkNoteFilter, actor Actor) (Page[WorkNote], error)
	// AddWorkNote writes a note; the users it mentions who may see the assessment are
	// listed in its mentions and notified.
	AddWorkNote(ctx context.Context, assessmentID string, in NewWorkNote, actor Actor) (WorkNote, error)
	// UpdateWorkNote replaces the content of one's own note (422 not_author otherwise);
	// its mentions are resolved again, without notifying anyone.
	UpdateWorkNote(ctx context.Context, assessmentID, id string, upd WorkNoteUpdate, actor Actor) (WorkNote, error)
	// DeleteWorkNote deletes one's own note.
	DeleteWorkNote(ctx context.Context, assessmentID, id string, version int64, actor Actor) error
	// MentionableUsers returns the active members of the team and the authors and
	// reviewers of the assessment's evidence, by username, at most 50.
	MentionableUsers(ctx context.Context, assessmentID string, f MentionableFilter, actor Actor) ([]UserRef, error)
	// FindTimeline returns a page of the changes recorded under an assessment, newest first.
	FindTimeline(ctx context.Context, assessmentID string, f TimelineFilter, actor Actor) (Page[TimelineEntry], error)
}
