package assess

import "time"

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

// ResultEvent is the data of assessment.result_recorded.
type ResultEvent struct {
	AssessmentID string                `json:"assessmentId"`
	Requirement  AssessmentRequirement `json:"requirement"`
}

// AssessmentService runs assessments, their team, requirements and results
// (pkg/postgres AssessmentService).
type AssessmentService interface{}

// ResultService keeps the requirements of started assessments: the workspace list, results,
// rationales and assignees (pkg/postgres ResultService).
type ResultService interface{}
