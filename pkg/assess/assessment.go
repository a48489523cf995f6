package assess

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
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

// ReadOnlyAssessmentStates are the states in which an assessment refuses changes to its
// content (results, rationales, team, notes, claims, evidence links): complete and
// archived (PRODUCT P5.4), and cancelled, which is final too. They are its terminal
// states for what hangs on it: evidence linked to it is locked (assessment_terminal) and
// it is never overdue. The one list of them: the store's SQL renders it from here.
var ReadOnlyAssessmentStates = []AssessmentState{AssessmentComplete, AssessmentArchived, AssessmentCancelled}

// AssessmentReadOnly reports whether an assessment in state s refuses changes to its
// content: s is one of ReadOnlyAssessmentStates.
func AssessmentReadOnly(s AssessmentState) bool {
	return slices.Contains(ReadOnlyAssessmentStates, s)
}

// FinishedAssessmentStates are the states of an assessment finished with a result:
// complete and archived. Its score counts in the project's figures (and it counts as
// complete there), and it is kept as a record: it cannot be deleted.
var FinishedAssessmentStates = []AssessmentState{AssessmentComplete, AssessmentArchived}

// AssessmentFinished reports whether s is one of FinishedAssessmentStates.
func AssessmentFinished(s AssessmentState) bool {
	return slices.Contains(FinishedAssessmentStates, s)
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
	ID                 string               `json:"id"`
	Title              string               `json:"title"`
	Description        string               `json:"description"`
	State              AssessmentState      `json:"state" enum:"new,pending,in_progress,on_hold,cancelled,complete,archived"`
	AllowedStates      []AssessmentState    `json:"allowedStates" doc:"The states this assessment may move to now"`
	EntityID           string               `json:"entityId"`
	EntityName         string               `json:"entityName"`
	ProjectID          string               `json:"projectId,omitempty"`
	ProjectName        string               `json:"projectName,omitempty"`
	Standards          []AssessmentStandard `json:"standards"`
	Assessors          []UserRef            `json:"assessors"`
	Assessees          []UserRef            `json:"assessees"`
	Tags               []TagRef             `json:"tags"`
	DueDate            string               `json:"dueDate,omitempty" doc:"YYYY-MM-DD"`
	Overdue            bool                 `json:"overdue" doc:"The due date has passed and the assessment is not complete, cancelled or archived"`
	StartedAt          *time.Time           `json:"startedAt,omitempty"`
	EndedAt            *time.Time           `json:"endedAt,omitempty" doc:"When it was completed or cancelled"`
	ConformanceScore   *float64             `json:"conformanceScore" doc:"0–100 (docs/assessments.md, Score); null until complete or when every answer is not applicable"`
	CompletionEvidence CompletionEvidence   `json:"completionEvidence" enum:"none,at_least_one,every_positive" doc:"The evidence completing the assessment needs: none; at_least_one (evidence linked to at least one requirement, unless every answer is not applicable); every_positive (evidence linked to every requirement answered yes or partial). A completion the rule refuses is 422 no_evidence or missing_evidence."`
	Progress           AssessmentProgress   `json:"progress"`
	CreatedBy          string               `json:"createdBy,omitempty"`
	Version            int64                `json:"version" doc:"Optimistic-concurrency version; send it back on update"`
	CreatedAt          time.Time            `json:"createdAt"`
	UpdatedAt          time.Time            `json:"updatedAt"`
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

// The inputs, filter and service of assessments (docs/assessments.md, "Assessments").

// Bounds of an assessment's inputs.
const (
	MaxAssessmentStandards = 20
	MaxAssessmentTeam      = 200
)

// DefaultRationaleMinWords is the minimum number of words of a rationale when
// ASSESSMENT_RATIONALE_MIN_WORDS does not say: shorter ones count as missing when an
// assessment is completed.
const DefaultRationaleMinWords = 15

// NewAssessment is an assessment to create: an entity assessed against standards (each
// optionally narrowed to a level), optionally inside a project, by a team.
type NewAssessment struct {
	Title       string                    `json:"title" minLength:"1" maxLength:"300"`
	Description string                    `json:"description,omitempty" maxLength:"10000"`
	EntityID    string                    `json:"entityId" minLength:"1" maxLength:"64" doc:"The entity assessed (not archived)"`
	ProjectID   string                    `json:"projectId,omitempty" maxLength:"64" doc:"The project the assessment belongs to, if any"`
	Standards   []AssessmentStandardInput `json:"standards,omitempty" maxItems:"20" doc:"Published standards, each optionally narrowed to one of its levels; empty: decided when the assessment starts (the entity's policies, else the project's standards)"`
	AssessorIDs []string                  `json:"assessorIds,omitempty" maxItems:"200" doc:"Active users"`
	AssesseeIDs []string                  `json:"assesseeIds,omitempty" maxItems:"200" doc:"Active users"`
	DueDate     string                    `json:"dueDate,omitempty" maxLength:"10" doc:"YYYY-MM-DD"`
	TagIDs      []string                  `json:"tagIds,omitempty" maxItems:"100"`
	// CompletionEvidence is the evidence completing will need; DefaultCompletionEvidence
	// when empty.
	CompletionEvidence CompletionEvidence `json:"completionEvidence,omitempty" enum:"none,at_least_one,every_positive" doc:"The evidence completing the assessment needs: none; at_least_one (evidence linked to at least one requirement, unless every answer is not applicable); every_positive (evidence linked to every requirement answered yes or partial). A completion the rule refuses is 422 no_evidence or missing_evidence. Default: every_positive."`
}

// Validate trims and checks the assessment: a title of 1–300 characters without control
// characters, an entity, a well-formed due date, at most 20 standards each named once, an
// evidence rule of CompletionEvidenceRules (DefaultCompletionEvidence when empty).
// Whether the ids exist is the store's check.
func (n *NewAssessment) Validate() error {
	var details []Detail
	var d *Detail
	n.Title, d = checkAssessmentTitle(n.Title)
	details = addTagDetail(details, d)
	n.Description = strings.TrimSpace(n.Description)
	n.EntityID, n.ProjectID = strings.TrimSpace(n.EntityID), strings.TrimSpace(n.ProjectID)
	if n.EntityID == "" {
		details = append(details, Detail{Field: "entityId", Code: "required", Message: "Name the entity assessed."})
	}
	details = addTagDetail(details, checkProjectDate("dueDate", &n.DueDate))
	details = append(details, checkAssessmentStandards(n.Standards)...)
	n.AssessorIDs, n.AssesseeIDs, n.TagIDs = idSet(n.AssessorIDs), idSet(n.AssesseeIDs), idSet(n.TagIDs)
	details = append(details, checkTeamSize(n.AssessorIDs, n.AssesseeIDs)...)
	if n.CompletionEvidence == "" {
		n.CompletionEvidence = DefaultCompletionEvidence
	}
	details = addTagDetail(details, checkCompletionEvidence(n.CompletionEvidence))
	if len(details) > 0 {
		return &Error{Code: ECodeValidation, Message: "The assessment is invalid.", Details: details}
	}
	return nil
}

// AssessmentUpdate changes an assessment. Omitted fields stay; an empty dueDate or
// projectId clears it; tagIds and standards, when present, replace the whole set. The
// standards change only while the assessment is new or pending (409 conflict, code
// started, afterwards). The team and the state change through their own operations.
type AssessmentUpdate struct {
	Version            int64                      `json:"version" minimum:"1" doc:"The version last read; a stale one is refused with 409 version_conflict"`
	Title              *string                    `json:"title,omitempty" minLength:"1" maxLength:"300"`
	Description        *string                    `json:"description,omitempty" maxLength:"10000"`
	DueDate            *string                    `json:"dueDate,omitempty" maxLength:"10" doc:"YYYY-MM-DD; empty to clear"`
	ProjectID          *string                    `json:"projectId,omitempty" maxLength:"64" doc:"A project id; empty to clear"`
	TagIDs             *[]string                  `json:"tagIds,omitempty" maxItems:"100" doc:"The whole set"`
	Standards          *[]AssessmentStandardInput `json:"standards,omitempty" maxItems:"20" doc:"The whole set; only while new or pending"`
	CompletionEvidence *CompletionEvidence        `json:"completionEvidence,omitempty" enum:"none,at_least_one,every_positive" doc:"The evidence completing the assessment needs: none; at_least_one (evidence linked to at least one requirement, unless every answer is not applicable); every_positive (evidence linked to every requirement answered yes or partial). A completion the rule refuses is 422 no_evidence or missing_evidence."`
}

// Validate trims and checks the fields present.
func (u *AssessmentUpdate) Validate() error {
	var details []Detail
	if u.Title != nil {
		t, d := checkAssessmentTitle(*u.Title)
		u.Title = &t
		details = addTagDetail(details, d)
	}
	trimPtr(u.Description)
	trimPtr(u.ProjectID)
	if u.DueDate != nil {
		details = addTagDetail(details, checkProjectDate("dueDate", u.DueDate))
	}
	if u.TagIDs != nil {
		*u.TagIDs = idSet(*u.TagIDs)
	}
	if u.Standards != nil {
		details = append(details, checkAssessmentStandards(*u.Standards)...)
	}
	if u.CompletionEvidence != nil {
		details = addTagDetail(details, checkCompletionEvidence(*u.CompletionEvidence))
	}
	if len(details) > 0 {
		return &Error{Code: ECodeValidation, Message: "The assessment is invalid.", Details: details}
	}
	return nil
}

// TeamUpdate replaces the team of an assessment: its assessors and its assessees (a
// user may be both). Users must be active.
type TeamUpdate struct {
	Version     int64    `json:"version" minimum:"1" doc:"The version last read; a stale one is refused with 409 version_conflict"`
	AssessorIDs []string `json:"assessorIds" maxItems:"200" doc:"The whole set of assessors"`
	AssesseeIDs []string `json:"assesseeIds" maxItems:"200" doc:"The whole set of assessees"`
}

// Validate normalises the two sets (trimmed, sorted, without duplicates).
func (t *TeamUpdate) Validate() error {
	t.AssessorIDs, t.AssesseeIDs = idSet(t.AssessorIDs), idSet(t.AssesseeIDs)
	if t.AssessorIDs == nil {
		t.AssessorIDs = []string{}
	}
	if t.AssesseeIDs == nil {
		t.AssesseeIDs = []string{}
	}
	if details := checkTeamSize(t.AssessorIDs, t.AssesseeIDs); len(details) > 0 {
		return &Error{Code: ECodeValidation, Message: "The team is invalid.", Details: details}
	}
	return nil
}

// AssessmentTransition moves an assessment along AssessmentLifecycle.
type AssessmentTransition struct {
	To      AssessmentState `json:"to" enum:"new,pending,in_progress,on_hold,cancelled,complete,archived"`
	Version int64           `json:"version" minimum:"1" doc:"The version last read; a stale one is refused with 409 version_conflict"`
	Reason  string          `json:"reason,omitempty" maxLength:"2000" doc:"Why; kept in the audit log"`
	// From, when set, is the state the assessment must be in (the reopen action: only a
	// complete assessment is reopened); another answers 409 invalid_state_transition.
	From AssessmentState `json:"-"`
}

// Validate trims the reason and checks that the target is a state of the lifecycle.
func (tr *AssessmentTransition) Validate() error {
	tr.Reason = strings.TrimSpace(tr.Reason)
	if !slices.Contains(AssessmentLifecycle.States(), tr.To) {
		return &Error{Code: ECodeValidation, Message: "Unknown assessment state.",
			Details: []Detail{{Field: "to", Code: "invalid", Message: "One of new, pending, in_progress, on_hold, cancelled, complete, archived."}}}
	}
	return nil
}

// AssessmentVersion is the body of the convenience actions (start, complete, reopen,
// archive, cancel): the version last read.
type AssessmentVersion struct {
	Version int64 `json:"version" minimum:"1" doc:"The version last read; a stale one is refused with 409 version_conflict"`
}

// AssessmentFilter selects assessments for the list; the caller sees only assessments
// they may see (docs/assessments.md, "Who sees what").
type AssessmentFilter struct {
	State     string `query:"state" enum:"new,pending,in_progress,on_hold,cancelled,complete,archived," doc:"Only assessments in this state"`
	Project   string `query:"project" maxLength:"64" doc:"Only assessments of this project (id)"`
	Entity    string `query:"entity" maxLength:"64" doc:"Only assessments of this entity (id)"`
	Standard  string `query:"standard" maxLength:"64" doc:"Only assessments against this standard (id)"`
	Tag       string `query:"tag" maxLength:"64" doc:"Only assessments carrying this tag (id)"`
	Mine      bool   `query:"mine" doc:"Only assessments the caller is an assessor or assessee of"`
	Overdue   bool   `query:"overdue" doc:"Only overdue assessments (due date passed, not complete, cancelled or archived)"`
	DueBefore string `query:"dueBefore" maxLength:"10" doc:"YYYY-MM-DD: only assessments due before this day"`
	Q         string `query:"q" maxLength:"100" doc:"Matches title or description (case-insensitive substring)"`
	Sort      string `query:"sort" enum:"-createdAt,title,dueDate,-updatedAt," doc:"-createdAt (default, newest first), title, dueDate (soonest first, undated last) or -updatedAt (recently changed first)"`
	PageRequest
}

// Validate checks the form of dueBefore.
func (f *AssessmentFilter) Validate() error {
	if d := checkProjectDate("dueBefore", &f.DueBefore); d != nil {
		return &Error{Code: ECodeValidation, Message: "The filter is invalid.", Details: []Detail{*d}}
	}
	return nil
}

// AssessmentOverdue reports whether an assessment in state s with dueDate (YYYY-MM-DD or
// "") is overdue on day today: the due date has passed and it is not complete, cancelled
// or archived.
func AssessmentOverdue(s AssessmentState, dueDate, today string) bool {
	return dueDate != "" && dueDate < today && !AssessmentReadOnly(s)
}

// ErrAssessmentStarted refuses a change of the standards of an assessment that has
// started: its requirements are loaded from them.
var ErrAssessmentStarted = &Error{Code: ECodeConflict, Message: "The assessment has started; its standards can no longer change.",
	Details: []Detail{{Field: "standards", Code: "started", Message: "Standards change only while the assessment is new or pending."}}}

// ErrNoRequirements refuses to start an assessment with nothing to assess: no standard
// of its own, of its entity's compliance policies or of its project, or none with
// requirements (in its level).
var ErrNoRequirements = &Error{Code: ECodeBusinessRule, Message: "There are no requirements to assess: name standards on the assessment, " +
	"a compliance policy on its entity, or standards on its project.",
	Details: []Detail{{Field: "standards", Code: "no_requirements", Message: "No requirements found to load."}}}

// checkAssessmentTitle trims a title and checks it: 1–300 characters, no control
// characters.
func checkAssessmentTitle(title string) (string, *Detail) {
	title = strings.TrimSpace(title)
	switch n := utf8.RuneCountInString(title); {
	case n == 0:
		return title, &Detail{Field: "title", Code: "required", Message: "Give the assessment a title."}
	case n > 300:
		return title, &Detail{Field: "title", Code: "too_long", Message: "At most 300 characters."}
	case strings.ContainsFunc(title, unicode.IsControl):
		return title, &Detail{Field: "title", Code: "invalid", Message: "A title cannot contain control characters."}
	}
	return title, nil
}

// checkAssessmentStandards trims the standards in place and checks that there are at
// most 20, each named once.
func checkAssessmentStandards(list []AssessmentStandardInput) []Detail {
	var details []Detail
	if len(list) > MaxAssessmentStandards {
		details = append(details, Detail{Field: "standards", Code: "too_many", Message: "At most 20 standards."})
	}
	seen := map[string]bool{}
	for i := range list {
		list[i].StandardID, list[i].LevelID = strings.TrimSpace(list[i].StandardID), strings.TrimSpace(list[i].LevelID)
		switch id := list[i].StandardID; {
		case id == "":
			details = append(details, Detail{Field: "standards", Code: "required", Message: "Name each standard by its id."})
		case seen[id]:
			details = append(details, Detail{Field: "standards", Code: "duplicate", Message: "Name each standard once."})
		}
		seen[list[i].StandardID] = true
	}
	return details
}

// checkTeamSize bounds each side of a team.
func checkTeamSize(assessors, assessees []string) []Detail {
	var details []Detail
	if len(assessors) > MaxAssessmentTeam {
		details = append(details, Detail{Field: "assessorIds", Code: "too_many", Message: "At most 200 assessors."})
	}
	if len(assessees) > MaxAssessmentTeam {
		details = append(details, Detail{Field: "assesseeIds", Code: "too_many", Message: "At most 200 assessees."})
	}
	return details
}

// AssessmentService runs assessments: the list, the record, its team and its lifecycle
// (pkg/postgres AssessmentService). Every method answers 404 for an assessment the actor
// may not see.
type AssessmentService interface {
	// FindAssessments returns one page of the assessments actor may see.
	FindAssessments(ctx context.Context, f AssessmentFilter, actor Actor) (Page[Assessment], error)
	// FindAssessment returns one assessment with its allowed states and progress.
	FindAssessment(ctx context.Context, id string, actor Actor) (Assessment, error)
	// CreateAssessment creates an assessment in state new; the creator joins the team as
	// assessor unless already in it or holding assessments.view_all.
	CreateAssessment(ctx context.Context, in NewAssessment, actor Actor) (Assessment, error)
	// UpdateAssessment changes an assessment with optimistic concurrency.
	UpdateAssessment(ctx context.Context, id string, upd AssessmentUpdate, actor Actor) (Assessment, error)
	// ReplaceAssessmentTeam replaces the assessors and assessees.
	ReplaceAssessmentTeam(ctx context.Context, id string, t TeamUpdate, actor Actor) (Assessment, error)
	// TransitionAssessment moves an assessment along AssessmentLifecycle, with the
	// preconditions and effects of the target (start loads requirements, complete scores).
	TransitionAssessment(ctx context.Context, id string, tr AssessmentTransition, actor Actor) (Assessment, error)
	// CheckAssessmentCompletion answers whether the assessment may complete now and which
	// completion rules it breaks, as completing would decide (CheckCompletion), without
	// changing anything.
	CheckAssessmentCompletion(ctx context.Context, id string, actor Actor) (CompletionCheck, error)
	// DeleteAssessment deletes an assessment (not complete or archived) for good.
	DeleteAssessment(ctx context.Context, id string, version int64, actor Actor) error
}

// ---------------------------------------------------------------------------------------
// Requirements and results of started assessments (the assessor's workspace). Kept in one
// block: ResultService's inputs, filter, rules and methods.
// ---------------------------------------------------------------------------------------

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
	// WorkspaceRevision is the revision of the assessment's requirements list (results,
	// rationales, assignees, evidence and claim counts, the standards' order): 404 when the
	// actor may not see the assessment.
	WorkspaceRevision(ctx context.Context, assessmentID string, actor Actor) (Revision, error)
	// RationaleMinWords is the fewest words a result's rationale needs
	// (ASSESSMENT_RATIONALE_MIN_WORDS; 0: no minimum).
	RationaleMinWords() int
	// FindAssessmentRequirement returns one requirement of the assessment.
	FindAssessmentRequirement(ctx context.Context, assessmentID, id string, actor Actor) (AssessmentRequirement, error)
	// RecordResult writes the result, rationale and assignee of one requirement while the
	// assessment is in progress.
	RecordResult(ctx context.Context, assessmentID, id string, u ResultUpdate, actor Actor) (AssessmentRequirement, error)
	// RecordResults writes many answers of one assessment, all or nothing.
	RecordResults(ctx context.Context, assessmentID string, b BulkResults, actor Actor) ([]AssessmentRequirement, error)
}
