package assess

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"
)

// AssessmentState is where an assessment is in its lifecycle.
type AssessmentState string

// Assessment states (reference-backend §2.1).
const (
	AssessmentNew        AssessmentState = "new"
	AssessmentPending    AssessmentState = "pending"
	AssessmentInProgress AssessmentState = "in_progress"
	AssessmentOnHold     AssessmentState = "on_hold"
	AssessmentCancelled  AssessmentState = "cancelled"
	AssessmentComplete   AssessmentState = "complete"
	AssessmentArchived   AssessmentState = "archived"
)

// AssessmentLifecycle is the assessment state machine (PRODUCT P5.4, reference-backend
// §2.1). Starting (new or pending → in_progress) loads the requirements; completing checks
// that every requirement is answered and computes the score; complete → in_progress is a
// reopen; cancelled and archived are final.
var AssessmentLifecycle = NewStateMachine("assessment", []Transition[AssessmentState]{
	{AssessmentNew, []AssessmentState{AssessmentPending, AssessmentInProgress, AssessmentCancelled}},
	{AssessmentPending, []AssessmentState{AssessmentInProgress, AssessmentOnHold, AssessmentCancelled}},
	{AssessmentInProgress, []AssessmentState{AssessmentOnHold, AssessmentComplete, AssessmentCancelled}},
	{AssessmentOnHold, []AssessmentState{AssessmentInProgress, AssessmentCancelled}},
	{AssessmentComplete, []AssessmentState{AssessmentInProgress, AssessmentArchived}},
	{AssessmentCancelled, nil},
	{AssessmentArchived, nil},
})

// AssessmentReadOnly reports whether an assessment in state s refuses changes to its
// content (results, rationales, team, notes, claims, evidence links): complete and
// archived (PRODUCT P5.4). Cancelled assessments are final too.
func AssessmentReadOnly(s AssessmentState) bool {
	return s == AssessmentComplete || s == AssessmentArchived || s == AssessmentCancelled
}

// ErrAssessmentReadOnly refuses a change under an assessment that no longer takes changes:
// 409 conflict with the details code read_only naming the state.
func ErrAssessmentReadOnly(s AssessmentState) error {
	return &Error{Code: ECodeConflict, Message: "The assessment is " + string(s) + " and read-only.",
		Details: []Detail{{Field: "state", Code: "read_only", Message: string(s)}}}
}

// Result is the answer recorded for one requirement of an assessment.
type Result string

// Results.
const (
	ResultYes           Result = "yes"
	ResultPartial       Result = "partial"
	ResultNo            Result = "no"
	ResultNotApplicable Result = "not_applicable"
)

// MemberRole is a member's part in an assessment's team.
type MemberRole string

// Team roles.
const (
	RoleInAssessmentAssessor MemberRole = "assessor"
	RoleInAssessmentAssessee MemberRole = "assessee"
)

// UserRef names a user as records show them.
type UserRef struct {
	ID          string `json:"id"`
	Username    string `json:"username"`
	DisplayName string `json:"displayName"`
}

// AssessmentStandard is one standard an assessment is against, optionally narrowed to one
// of its levels, with its own conformance score once the assessment is complete.
type AssessmentStandard struct {
	ID               string   `json:"id"`
	Name             string   `json:"name"`
	StandardVersion  string   `json:"standardVersion"`
	LevelID          string   `json:"levelId,omitempty"`
	LevelName        string   `json:"levelName,omitempty"`
	ConformanceScore *float64 `json:"conformanceScore" doc:"0–100, per this standard (and level); null until complete or when every answer is not applicable"`
}

// AssessmentProgress counts the answers of an assessment's requirements.
type AssessmentProgress struct {
	Total         int `json:"total" doc:"Requirements loaded"`
	Answered      int `json:"answered" doc:"With a result and a rationale"`
	Yes           int `json:"yes"`
	Partial       int `json:"partial"`
	No            int `json:"no"`
	NotApplicable int `json:"notApplicable"`
	WithEvidence  int `json:"withEvidence" doc:"Requirements with at least one linked piece of evidence"`
}

// Assessment is one entity assessed against one or more standards by a team.
type Assessment struct {
	ID               string               `json:"id"`
	Title            string               `json:"title"`
	Description      string               `json:"description"`
	State            AssessmentState      `json:"state" enum:"new,pending,in_progress,on_hold,cancelled,complete,archived"`
	AllowedStates    []AssessmentState    `json:"allowedStates" doc:"The states this assessment may move to now"`
	EntityID         string               `json:"entityId"`
	EntityName       string               `json:"entityName"`
	ProjectID        string               `json:"projectId,omitempty"`
	ProjectName      string               `json:"projectName,omitempty"`
	Standards        []AssessmentStandard `json:"standards"`
	Assessors        []UserRef            `json:"assessors"`
	Assessees        []UserRef            `json:"assessees"`
	Tags             []TagRef             `json:"tags"`
	DueDate          string               `json:"dueDate,omitempty" doc:"YYYY-MM-DD"`
	Overdue          bool                 `json:"overdue" doc:"The due date has passed and the assessment is not complete, cancelled or archived"`
	StartedAt        *time.Time           `json:"startedAt,omitempty"`
	EndedAt          *time.Time           `json:"endedAt,omitempty" doc:"When it was completed or cancelled"`
	ConformanceScore *float64             `json:"conformanceScore" doc:"0–100 (docs/assessments.md, Score); null until complete or when every answer is not applicable"`
	Progress         AssessmentProgress   `json:"progress"`
	CreatedBy        string               `json:"createdBy,omitempty"`
	Version          int64                `json:"version" doc:"Optimistic-concurrency version; send it back on update"`
	CreatedAt        time.Time            `json:"createdAt"`
	UpdatedAt        time.Time            `json:"updatedAt"`
}

// AssessmentStandardInput names a standard for a new assessment and, optionally, a level
// of that standard.
type AssessmentStandardInput struct {
	StandardID string `json:"standardId" minLength:"1" maxLength:"64"`
	LevelID    string `json:"levelId,omitempty" maxLength:"64" doc:"A level of this standard; all of its requirements when absent"`
}

// AssessmentRequirement is one requirement of a started assessment, as the workspace shows
// it: the catalogue requirement (identifier, name, place in the tree) and the answer.
type AssessmentRequirement struct {
	ID            string           `json:"id" doc:"The assessment requirement (ar_…)"`
	RequirementID string           `json:"requirementId" doc:"The catalogue requirement (rq_…)"`
	StandardID    string           `json:"standardId"`
	Identifier    string           `json:"identifier"`
	Name          string           `json:"name"`
	Description   string           `json:"description"`
	Ancestors     []RequirementRef `json:"ancestors" doc:"The catalogue requirements above this one, outermost first (the chapters and sections it sits in)"`
	Result        *Result          `json:"result" enum:"yes,partial,no,not_applicable" doc:"null until answered"`
	Rationale     string           `json:"rationale"`
	AssigneeID    string           `json:"assigneeId,omitempty"`
	AnsweredBy    string           `json:"answeredBy,omitempty"`
	AnsweredAt    *time.Time       `json:"answeredAt,omitempty"`
	EvidenceCount int              `json:"evidenceCount"`
	ClaimCount    int              `json:"claimCount"`
	Version       int64            `json:"version"`
}

// RequirementRef names a catalogue requirement.
type RequirementRef struct {
	ID         string `json:"id"`
	Identifier string `json:"identifier"`
	Name       string `json:"name"`
}

// AssessmentEvent is the data of assessment.* events: the assessment and, for state
// changes, where it came from.
type AssessmentEvent struct {
	Assessment
	PreviousState AssessmentState `json:"previousState,omitempty" enum:"new,pending,in_progress,on_hold,cancelled,complete,archived,"`
}

// ResultEvent is the data of assessment.result_recorded: the requirement written, or for a
// bulk write the ids of every requirement written and their number.
type ResultEvent struct {
	AssessmentID   string                 `json:"assessmentId"`
	Requirement    *AssessmentRequirement `json:"requirement,omitempty" doc:"The requirement written (one requirement's update)"`
	RequirementIDs []string               `json:"requirementIds,omitempty" doc:"The requirements written (a bulk write)"`
	Count          int                    `json:"count" doc:"How many requirements were written"`
}

// AssessmentService runs assessments, their team, requirements and results
// (pkg/postgres AssessmentService).
type AssessmentService interface{}

// ---------------------------------------------------------------------------------------
// Requirements and results of started assessments (the assessor's workspace). Kept in one
// block: ResultService's inputs, filter, rules and methods.
// ---------------------------------------------------------------------------------------

// DefaultRationaleMinWords is the shortest rationale a result needs unless
// ASSESSMENT_RATIONALE_MIN_WORDS says otherwise.
const DefaultRationaleMinWords = 15

// Bounds of result writes.
const (
	MaxRationaleLength = 10000 // characters of one rationale
	MaxBulkResults     = 500   // items of one bulk write
)

// RationaleWords counts the words of a rationale: whitespace-separated tokens that hold at
// least one letter or digit, so "-", "…" or "--" do not pad a rationale.
func RationaleWords(s string) int {
	n := 0
	for _, tok := range strings.Fields(s) {
		if strings.IndexFunc(tok, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			n++
		}
	}
	return n
}

// RationaleSufficient reports whether rationale has at least minWords words (minWords ≤ 0:
// any rationale, even an empty one).
func RationaleSufficient(rationale string, minWords int) bool {
	return minWords <= 0 || RationaleWords(rationale) >= minWords
}

// ValidResult reports whether r is one of the four results.
func ValidResult(r Result) bool {
	switch r {
	case ResultYes, ResultPartial, ResultNo, ResultNotApplicable:
		return true
	}
	return false
}

// ResultUpdate records the answer to one requirement: result and rationale are replaced,
// the assignee only when given.
type ResultUpdate struct {
	Version    int64   `json:"version" minimum:"1"`
	Result     *Result `json:"result" enum:"yes,partial,no,not_applicable" doc:"null clears the answer"`
	Rationale  string  `json:"rationale" maxLength:"10000" doc:"Needs at least ASSESSMENT_RATIONALE_MIN_WORDS words (default 15) when a result is given"`
	AssigneeID *string `json:"assigneeId,omitempty" maxLength:"64" doc:"A member of the assessment's team; \"\" clears; absent keeps the assignee"`
}

// Validate trims the rationale and checks result and rationale: a result needs a
// rationale of at least minWords words (400 on rationale, code too_short); no result may
// go with any rationale, an empty one included. Whether the assignee is on the team is the
// store's check.
func (u *ResultUpdate) Validate(minWords int) error {
	var c checker
	checkAnswer(&c, "", u.Result, &u.Rationale, minWords)
	if u.AssigneeID != nil {
		*u.AssigneeID = strings.TrimSpace(*u.AssigneeID)
	}
	return c.err("The result is invalid.")
}

// checkAnswer checks one result and its rationale; prefix names the item of a bulk write.
func checkAnswer(c *checker, prefix string, result *Result, rationale *string, minWords int) {
	c.text(prefix+"rationale", rationale, MaxRationaleLength)
	if result == nil {
		return
	}
	if !ValidResult(*result) {
		c.add(prefix+"result", "invalid", "One of yes, partial, no, not_applicable, or null.")
		return
	}
	if !RationaleSufficient(*rationale, minWords) {
		c.add(prefix+"rationale", "too_short", fmt.Sprintf("A result needs a rationale of at least %d words (%d given).",
			minWords, RationaleWords(*rationale)))
	}
}

// BulkResultItem is one answer of a bulk write.
type BulkResultItem struct {
	ID        string  `json:"id" minLength:"1" maxLength:"64" doc:"The assessment requirement (ar_…)"`
	Result    *Result `json:"result" enum:"yes,partial,no,not_applicable" doc:"null clears the answer"`
	Rationale string  `json:"rationale" maxLength:"10000"`
}

// BulkResults records many answers of one assessment at once, all or nothing. Items carry
// no version: the last write wins.
type BulkResults struct {
	Items []BulkResultItem `json:"items" minItems:"1" maxItems:"500"`
}

// Validate checks every item like ResultUpdate, naming items[i].field, and refuses an
// empty request, more than MaxBulkResults items and the same requirement twice.
func (b *BulkResults) Validate(minWords int) error {
	var c checker
	if len(b.Items) == 0 || len(b.Items) > MaxBulkResults {
		c.add("items", "out_of_range", fmt.Sprintf("Between 1 and %d items.", MaxBulkResults))
	}
	seen := make(map[string]bool, len(b.Items))
	for i := range b.Items {
		it := &b.Items[i]
		prefix := fmt.Sprintf("items[%d].", i)
		it.ID = strings.TrimSpace(it.ID)
		switch {
		case !ValidID(PrefixAssessmentRequirement, it.ID):
			c.add(prefix+"id", "invalid", "The id of a requirement of this assessment (ar_…).")
		case seen[it.ID]:
			c.add(prefix+"id", "duplicate", "Each requirement at most once per request.")
		}
		seen[it.ID] = true
		checkAnswer(&c, prefix, it.Result, &it.Rationale, minWords)
	}
	return c.err("The results are invalid.")
}

// AssessmentRequirementFilter narrows the workspace list of one assessment's requirements;
// it is a whole list in tree order, not paged.
type AssessmentRequirementFilter struct {
	Q          string `query:"q" maxLength:"100" doc:"Matches identifier, name or description (case-insensitive substring)"`
	Result     string `query:"result" maxLength:"100" doc:"Comma-separated: yes, partial, no, not_applicable, unanswered"`
	Mine       bool   `query:"mine" doc:"Only requirements assigned to the caller"`
	NoEvidence bool   `query:"noEvidence" doc:"Only requirements without linked evidence"`
	Standard   string `query:"standard" maxLength:"64" doc:"Only requirements of this standard (id)"`
}

// ResultUnanswered is the result filter value of requirements without a result.
const ResultUnanswered = "unanswered"

// Results returns the result filter as a list, or 400 on result naming an unknown value.
func (f AssessmentRequirementFilter) Results() ([]string, error) {
	var out []string
	for _, v := range strings.Split(f.Result, ",") {
		v = strings.TrimSpace(v)
		switch {
		case v == "":
		case v == ResultUnanswered || ValidResult(Result(v)):
			out = append(out, v)
		default:
			return nil, &Error{Code: ECodeValidation, Message: "The result filter is invalid.", Details: []Detail{{Field: "result",
				Code: "invalid", Message: "Comma-separated values of yes, partial, no, not_applicable, unanswered."}}}
		}
	}
	return out, nil
}

// ResultService keeps the requirements of started assessments: the workspace list, results,
// rationales and assignees (pkg/postgres ResultService).
type ResultService interface {
	// FindAssessmentRequirements returns the requirements of a started assessment the actor
	// may see, in tree order (standard order, then depth-first), each with its ancestors.
	FindAssessmentRequirements(ctx context.Context, assessmentID string, f AssessmentRequirementFilter, actor Actor) ([]AssessmentRequirement, error)
	// FindAssessmentRequirement returns one requirement of the assessment.
	FindAssessmentRequirement(ctx context.Context, assessmentID, id string, actor Actor) (AssessmentRequirement, error)
	// RecordResult writes the result, rationale and assignee of one requirement while the
	// assessment is in progress.
	RecordResult(ctx context.Context, assessmentID, id string, u ResultUpdate, actor Actor) (AssessmentRequirement, error)
	// RecordResults writes many answers of one assessment, all or nothing.
	RecordResults(ctx context.Context, assessmentID string, b BulkResults, actor Actor) ([]AssessmentRequirement, error)
}
