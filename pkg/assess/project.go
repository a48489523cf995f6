package assess

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// ProjectState is where a project is in its lifecycle.
type ProjectState string

// Project states.
const (
	ProjectNew         ProjectState = "new"
	ProjectInProgress  ProjectState = "in_progress"
	ProjectOnHold      ProjectState = "on_hold"
	ProjectComplete    ProjectState = "complete"
	ProjectOperational ProjectState = "operational"
	ProjectRetired     ProjectState = "retired"
)

// ProjectLifecycle is the project state machine (docs/catalogue.md, "Projects"). Work
// starts, pauses and resumes; a complete project goes into operation or is reopened; an
// operational one is reopened for new work or retired. Retired is final: a successor is a
// new project.
var ProjectLifecycle = NewStateMachine("project", []Transition[ProjectState]{
	{ProjectNew, []ProjectState{ProjectInProgress, ProjectOnHold, ProjectRetired}},
	{ProjectInProgress, []ProjectState{ProjectOnHold, ProjectComplete, ProjectRetired}},
	{ProjectOnHold, []ProjectState{ProjectInProgress, ProjectRetired}},
	{ProjectComplete, []ProjectState{ProjectOperational, ProjectInProgress, ProjectRetired}},
	{ProjectOperational, []ProjectState{ProjectInProgress, ProjectRetired}},
	{ProjectRetired, nil},
})

// ProjectInitialStates are the states a project may be created in: new, or a state new
// may move to, other than retired.
var ProjectInitialStates = []ProjectState{ProjectNew, ProjectInProgress, ProjectOnHold}

// projectSettled are the states in which a due date no longer makes a project overdue.
var projectSettled = []ProjectState{ProjectComplete, ProjectOperational, ProjectRetired}

// ProjectOverdue reports whether a project is overdue on day today (YYYY-MM-DD): it has a
// due date before today, is not complete, operational or retired, and is not archived.
func ProjectOverdue(state ProjectState, dueDate, today string, archived bool) bool {
	return dueDate != "" && dueDate < today && !archived && !slices.Contains(projectSettled, state)
}

// ProjectDateLayout is the form of project dates: a calendar day, YYYY-MM-DD.
const ProjectDateLayout = time.DateOnly

// ProjectStandard is a standard as a project lists it.
type ProjectStandard struct {
	ID              string        `json:"id"`
	Name            string        `json:"name"`
	StandardVersion string        `json:"standardVersion"`
	State           StandardState `json:"state" enum:"draft,in_review,published,retired"`
}

// ProjectEntity is an entity as a project lists it.
type ProjectEntity struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Type string `json:"type" doc:"The entity's type, e.g. product, service"`
}

// Project is a piece of assessment work: the standards it assesses against, the entities
// it covers, its dates and its state.
type Project struct {
	ID          string            `json:"id"`
	Name        string            `json:"name"`
	Description string            `json:"description"`
	State       ProjectState      `json:"state" enum:"new,in_progress,on_hold,complete,operational,retired"`
	OwnerID     string            `json:"ownerId,omitempty"`
	OwnerName   string            `json:"ownerName,omitempty" doc:"The owner's display name (or username)"`
	StartDate   string            `json:"startDate,omitempty" doc:"YYYY-MM-DD"`
	DueDate     string            `json:"dueDate,omitempty" doc:"YYYY-MM-DD"`
	ArchivedAt  *time.Time        `json:"archivedAt,omitempty" doc:"Set while archived: hidden from the default list and read-only"`
	Standards   []ProjectStandard `json:"standards"`
	Entities    []ProjectEntity   `json:"entities"`
	Tags        []TagRef          `json:"tags"`
	Overdue     bool              `json:"overdue" doc:"The due date has passed and the project is not complete, operational, retired or archived"`
	Version     int64             `json:"version" doc:"Optimistic-concurrency version; send it back on update"`
	CreatedAt   time.Time         `json:"createdAt"`
	UpdatedAt   time.Time         `json:"updatedAt"`
}

// ProjectFilter selects projects for the project list.
type ProjectFilter struct {
	State    string `query:"state" enum:"new,in_progress,on_hold,complete,operational,retired," doc:"Only projects in this state"`
	Tag      string `query:"tag" maxLength:"64" doc:"Only projects carrying this tag (id)"`
	Standard string `query:"standard" maxLength:"64" doc:"Only projects assessing against this standard (id)"`
	Entity   string `query:"entity" maxLength:"64" doc:"Only projects covering this entity (id)"`
	Q        string `query:"q" maxLength:"100" doc:"Matches name or description (case-insensitive substring)"`
	Archived bool   `query:"archived" doc:"true: only archived projects; otherwise only those not archived"`
	Sort     string `query:"sort" enum:"name,-createdAt,dueDate," doc:"name (default), -createdAt (newest first) or dueDate (soonest first, undated last)"`
	PageRequest
}

// NewProject is a project to create.
type NewProject struct {
	Name        string       `json:"name" minLength:"1" maxLength:"300"`
	Description string       `json:"description,omitempty" maxLength:"10000"`
	State       ProjectState `json:"state,omitempty" enum:"new,in_progress,on_hold" doc:"new when absent"`
	OwnerID     string       `json:"ownerId,omitempty" maxLength:"64" doc:"A user id; no owner when absent"`
	StartDate   string       `json:"startDate,omitempty" maxLength:"10" doc:"YYYY-MM-DD"`
	DueDate     string       `json:"dueDate,omitempty" maxLength:"10" doc:"YYYY-MM-DD, not before startDate"`
	StandardIDs []string     `json:"standardIds,omitempty" maxItems:"200" doc:"Published standards to assess against"`
	EntityIDs   []string     `json:"entityIds,omitempty" maxItems:"200" doc:"Entities the project covers (not archived ones)"`
	TagIDs      []string     `json:"tagIds,omitempty" maxItems:"100"`
}

// Validate trims and checks the project: a name of 1–300 characters without control
// characters, an initial state, well-formed dates with the due date not before the start.
// Whether the ids exist is the store's check.
func (p *NewProject) Validate() error {
	var details []Detail
	var d *Detail
	p.Name, d = checkProjectName(p.Name)
	details = addTagDetail(details, d)
	p.Description = strings.TrimSpace(p.Description)
	p.OwnerID = strings.TrimSpace(p.OwnerID)
	if p.State == "" {
		p.State = ProjectNew
	}
	if !slices.Contains(ProjectInitialStates, p.State) {
		details = append(details, Detail{Field: "state", Code: "invalid", Message: "A project starts as new, in_progress or on_hold."})
	}
	details = append(details, CheckProjectDates(&p.StartDate, &p.DueDate)...)
	p.StandardIDs, p.EntityIDs, p.TagIDs = idSet(p.StandardIDs), idSet(p.EntityIDs), idSet(p.TagIDs)
	if len(details) > 0 {
		return &Error{Code: ECodeValidation, Message: "The project is invalid.", Details: details}
	}
	return nil
}

// ProjectUpdate changes a project. Omitted fields stay as they are; an empty ownerId,
// startDate or dueDate clears it; standardIds, entityIds and tagIds, when present, replace
// the whole set. The state changes through its own operation (ProjectStateChange).
type ProjectUpdate struct {
	Version     int64     `json:"version" minimum:"1" doc:"The version last read; a stale one is refused with 409 version_conflict"`
	Name        *string   `json:"name,omitempty" minLength:"1" maxLength:"300"`
	Description *string   `json:"description,omitempty" maxLength:"10000"`
	OwnerID     *string   `json:"ownerId,omitempty" maxLength:"64" doc:"A user id; empty to clear"`
	StartDate   *string   `json:"startDate,omitempty" maxLength:"10" doc:"YYYY-MM-DD; empty to clear"`
	DueDate     *string   `json:"dueDate,omitempty" maxLength:"10" doc:"YYYY-MM-DD; empty to clear"`
	StandardIDs *[]string `json:"standardIds,omitempty" maxItems:"200" doc:"The whole set; standards added must be published"`
	EntityIDs   *[]string `json:"entityIds,omitempty" maxItems:"200" doc:"The whole set; entities added must not be archived"`
	TagIDs      *[]string `json:"tagIds,omitempty" maxItems:"100" doc:"The whole set"`
}

// Validate trims and checks the fields present. The dates are checked for form here; the
// store checks the due date against the start date the project ends up with.
func (u *ProjectUpdate) Validate() error {
	var details []Detail
	if u.Name != nil {
		n, d := checkProjectName(*u.Name)
		u.Name = &n
		details = addTagDetail(details, d)
	}
	trimPtr(u.Description)
	trimPtr(u.OwnerID)
	for _, f := range []struct {
		field string
		v     *string
	}{{"startDate", u.StartDate}, {"dueDate", u.DueDate}} {
		if f.v != nil {
			details = addTagDetail(details, checkProjectDate(f.field, f.v))
		}
	}
	for _, set := range []*[]string{u.StandardIDs, u.EntityIDs, u.TagIDs} {
		if set != nil {
			*set = idSet(*set)
		}
	}
	if len(details) > 0 {
		return &Error{Code: ECodeValidation, Message: "The project is invalid.", Details: details}
	}
	return nil
}

// ProjectStateChange moves a project to another state of its lifecycle.
type ProjectStateChange struct {
	State   ProjectState `json:"state" enum:"new,in_progress,on_hold,complete,operational,retired"`
	Version int64        `json:"version" minimum:"1" doc:"The version last read; a stale one is refused with 409 version_conflict"`
}

// Validate checks that the target is a state of the lifecycle.
func (sc *ProjectStateChange) Validate() error {
	if !slices.Contains(ProjectLifecycle.States(), sc.State) {
		return &Error{Code: ECodeValidation, Message: "Unknown project state.",
			Details: []Detail{{Field: "state", Code: "invalid", Message: "One of new, in_progress, on_hold, complete, operational, retired."}}}
	}
	return nil
}

// ProjectArchive archives a project or brings it back.
type ProjectArchive struct {
	Version  int64 `json:"version" minimum:"1" doc:"The version last read; a stale one is refused with 409 version_conflict"`
	Archived *bool `json:"archived,omitempty" doc:"false restores an archived project; true (the default) archives it"`
}

// ErrProjectArchived refuses a change to an archived project other than restoring or
// deleting it.
var ErrProjectArchived = &Error{Code: ECodeBusinessRule, Message: "The project is archived; restore it before changing it.",
	Details: []Detail{{Code: "project_archived", Message: "Restore it with POST /api/v1/projects/{id}/archive {\"archived\": false}."}}}

// checkProjectName trims a project name and checks it: 1–300 characters, no control
// characters.
func checkProjectName(name string) (string, *Detail) {
	name = strings.TrimSpace(name)
	switch n := utf8.RuneCountInString(name); {
	case n == 0:
		return name, &Detail{Field: "name", Code: "required", Message: "Name the project."}
	case n > 300:
		return name, &Detail{Field: "name", Code: "too_long", Message: "At most 300 characters."}
	case strings.ContainsFunc(name, unicode.IsControl):
		return name, &Detail{Field: "name", Code: "invalid", Message: "A project name cannot contain control characters."}
	}
	return name, nil
}

// checkProjectDate trims a date in place and checks its form (YYYY-MM-DD, a real day);
// empty is allowed (no date).
func checkProjectDate(field string, v *string) *Detail {
	*v = strings.TrimSpace(*v)
	if *v == "" {
		return nil
	}
	if t, err := time.Parse(ProjectDateLayout, *v); err != nil || t.Year() < 1 {
		return &Detail{Field: field, Code: "invalid", Message: "A date is YYYY-MM-DD, such as 2025-06-30."}
	}
	return nil
}

// CheckProjectDates checks the form of both dates and that the due date is not before the
// start date; the details name the field at fault.
func CheckProjectDates(start, due *string) []Detail {
	var details []Detail
	details = addTagDetail(details, checkProjectDate("startDate", start))
	details = addTagDetail(details, checkProjectDate("dueDate", due))
	if len(details) == 0 && *start != "" && *due != "" && *due < *start {
		details = append(details, Detail{Field: "dueDate", Code: "before_start", Message: "The due date cannot be before the start date."})
	}
	return details
}

// trimPtr trims the string p points to, if any.
func trimPtr(p *string) {
	if p != nil {
		*p = strings.TrimSpace(*p)
	}
}

// idSet returns the trimmed ids, sorted and without duplicates or blanks; nil stays nil
// (the set is not given).
func idSet(ids []string) []string {
	if ids == nil {
		return nil
	}
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if id = strings.TrimSpace(id); id != "" {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// ProjectFigures are a project's progress figures, over the project's assessments that the
// caller may see (docs/assessments.md, Results and figures): ratios are null while there
// is nothing to divide.
type ProjectFigures struct {
	Assessments      ProjectAssessmentFigures  `json:"assessments"`
	Overdue          ProjectOverdueFigures     `json:"overdue"`
	EvidenceCoverage ProjectEvidenceFigures    `json:"evidenceCoverage"`
	Conformance      ProjectConformanceFigures `json:"conformance"`
	Warnings         []ProjectWarning          `json:"warnings"`
}

// ProjectAssessmentFigures count the project's assessments by progress.
type ProjectAssessmentFigures struct {
	Total           int                     `json:"total"`
	Complete        int                     `json:"complete" doc:"Complete or archived"`
	InProgress      int                     `json:"inProgress"`
	ByState         map[AssessmentState]int `json:"byState" doc:"Assessments per state, every state named (0 included)"`
	Requirements    int                     `json:"requirements" doc:"Requirements loaded in the assessments that are not cancelled"`
	Answered        int                     `json:"answered" doc:"Those with a result"`
	PercentComplete *float64                `json:"percentComplete" doc:"The mean progress of the assessments that are not cancelled, each counted alike: a complete or archived one 100, one under way its answered requirements over its requirements, one not started 0 (two decimals); null while there is none"`
}

// ProjectOverdueFigures tell what is overdue.
type ProjectOverdueFigures struct {
	Project     bool `json:"project" doc:"The project itself is overdue"`
	Assessments int  `json:"assessments" doc:"Assessments past their due date and not complete, archived or cancelled"`
}

// ProjectEvidenceFigures tell how many assessed requirements have evidence.
type ProjectEvidenceFigures struct {
	Requirements int      `json:"requirements" doc:"Requirements loaded in the assessments that are not cancelled"`
	WithEvidence int      `json:"withEvidence" doc:"Those with at least one linked piece of evidence"`
	Percent      *float64 `json:"percent" doc:"withEvidence / requirements × 100 (two decimals); null while there are no requirements to cover"`
}

// ProjectConformanceFigures summarise the scores of the complete assessments.
type ProjectConformanceFigures struct {
	AverageScore *float64 `json:"averageScore" doc:"Mean conformance score of the complete and archived assessments that have one (two decimals); null while none has"`
	Assessed     int      `json:"assessed" doc:"How many scores the mean is over"`
}

// ProjectWarning is something about the project worth attention.
type ProjectWarning struct {
	Code     string `json:"code" doc:"no_standards, standard_not_published, overdue, assessments_overdue, assessments_due_after_project (warnings); work_started, ready_to_complete (info: the project's state may be moved, which never happens by itself)"`
	Message  string `json:"message"`
	Severity string `json:"severity" enum:"warning,info" doc:"warning: something needs attention; info: a move worth making"`
	Count    int    `json:"count,omitempty" doc:"How many assessments it concerns, where it concerns some"`
}

// ProjectAssessmentCounts are what the store counts for a project's figures, over the
// assessments the caller may see.
type ProjectAssessmentCounts struct {
	ByState      map[AssessmentState]int
	Overdue      int   // past due and not complete, archived or cancelled
	Requirements int   // loaded in assessments that are not cancelled
	Answered     int   // of those, with a result
	WithEvidence int   // of those, with linked evidence
	ScoreSum     Score // the sum of the scores of the finished assessments that have one
	Scored       int   // finished (complete or archived) assessments with a score
	// ProgressSum is the sum, over the assessments that are not cancelled, of each one's
	// progress in hundredths of a percent (AssessmentProgressPoints).
	ProgressSum int64
	// DueAfterProject counts the assessments not finished or cancelled that are due after
	// the project's due date.
	DueAfterProject int
}

// AssessmentProgressPoints is an assessment's progress in hundredths of a percent, as a
// project's completion counts it: 10000 when finished, answered / requirements while
// requirements are loaded (rounded down), 0 before (not started). The store sums it in SQL
// (project_figures.go); an agreement test holds both to the same answers.
func AssessmentProgressPoints(s AssessmentState, requirements, answered int) int64 {
	switch {
	case AssessmentFinished(s):
		return 10000
	case requirements <= 0:
		return 0
	default:
		return int64(answered) * 10000 / int64(requirements)
	}
}

// FiguresOf returns the figures of project p from the counts of its assessments, with
// warnings about p and its overdue assessments.
func FiguresOf(p Project, c ProjectAssessmentCounts) ProjectFigures {
	f := ProjectFigures{Overdue: ProjectOverdueFigures{Project: p.Overdue, Assessments: c.Overdue}, Warnings: []ProjectWarning{},
		EvidenceCoverage: ProjectEvidenceFigures{Requirements: c.Requirements, WithEvidence: c.WithEvidence,
			Percent: percentOf(c.WithEvidence, c.Requirements)},
		Conformance: ProjectConformanceFigures{AverageScore: MeanScore(c.ScoreSum, c.Scored), Assessed: c.Scored}}
	a := &f.Assessments
	a.ByState = make(map[AssessmentState]int, len(AssessmentLifecycle.States()))
	for _, s := range AssessmentLifecycle.States() {
		a.ByState[s] = c.ByState[s]
		a.Total += c.ByState[s]
	}
	for _, s := range FinishedAssessmentStates {
		a.Complete += c.ByState[s]
	}
	a.InProgress = c.ByState[AssessmentInProgress]
	a.Requirements, a.Answered = c.Requirements, c.Answered
	counted := a.Total - c.ByState[AssessmentCancelled]
	if counted > 0 {
		p := math.Round(float64(c.ProgressSum)/float64(counted)) / 100
		a.PercentComplete = &p
	}
	f.Warnings = projectWarnings(p, c, counted, a.Complete)
	return f
}

// projectWarnings are the warnings of project p with the counts c of its assessments,
// counted of them not cancelled and finished of them complete or archived: what needs
// attention, then the moves of its state worth making — a project's state never moves by
// itself (it says what its people decided: on hold, in operation), so the figures suggest
// the move instead.
func projectWarnings(p Project, c ProjectAssessmentCounts, counted, finished int) []ProjectWarning {
	var ws []ProjectWarning
	warn := func(code, message string, count int) {
		ws = append(ws, ProjectWarning{Code: code, Message: message, Severity: "warning", Count: count})
	}
	if len(p.Standards) == 0 {
		warn("no_standards", "The project names no standard to assess against.", 0)
	}
	for _, s := range p.Standards {
		if s.State != StandardPublished {
			warn("standard_not_published", "The standard "+s.Name+" is "+string(s.State)+".", 0)
		}
	}
	if p.Overdue {
		warn("overdue", "The due date "+p.DueDate+" has passed.", 0)
	}
	if c.Overdue > 0 {
		warn("assessments_overdue", fmt.Sprintf("%d assessment(s) are past their due date.", c.Overdue), c.Overdue)
	}
	if p.DueDate != "" && c.DueAfterProject > 0 {
		warn("assessments_due_after_project", fmt.Sprintf("%d assessment(s) are due after the project's due date %s.", c.DueAfterProject, p.DueDate),
			c.DueAfterProject)
	}
	info := func(code, message string) {
		ws = append(ws, ProjectWarning{Code: code, Message: message, Severity: "info"})
	}
	open := p.State == ProjectNew || p.State == ProjectInProgress || p.State == ProjectOnHold
	switch {
	case open && counted > 0 && finished == counted:
		info("ready_to_complete", "Every assessment of the project is complete: the project can be marked complete.")
	case p.State == ProjectNew && counted-c.ByState[AssessmentNew]-c.ByState[AssessmentPending] > 0:
		info("work_started", "Work has started on the project's assessments: the project can be marked in progress.")
	}
	if ws == nil {
		ws = []ProjectWarning{}
	}
	return ws
}

// percentOf is n / of × 100 with two decimals, or nil when of is 0.
func percentOf(n, of int) *float64 {
	if of == 0 {
		return nil
	}
	p := math.Round(float64(n)*10000/float64(of)) / 100
	return &p
}

// ProjectService manages projects, their standards and entities, and their figures, and
// loads the demo organisation.
type ProjectService interface {
	// FindProjects returns one page of projects.
	FindProjects(ctx context.Context, f ProjectFilter) (Page[Project], error)
	// FindProject returns one project.
	FindProject(ctx context.Context, id string) (Project, error)
	// CreateProject creates a project.
	CreateProject(ctx context.Context, np NewProject, actor Actor) (Project, error)
	// UpdateProject changes a project with optimistic concurrency.
	UpdateProject(ctx context.Context, id string, upd ProjectUpdate, actor Actor) (Project, error)
	// ChangeProjectState moves a project along ProjectLifecycle.
	ChangeProjectState(ctx context.Context, id string, sc ProjectStateChange, actor Actor) (Project, error)
	// ArchiveProject archives a project or restores it.
	ArchiveProject(ctx context.Context, id string, a ProjectArchive, actor Actor) (Project, error)
	// DeleteProject deletes a project for good.
	DeleteProject(ctx context.Context, id string, actor Actor) error
	// FindProjectFigures returns a project's progress figures over the project's
	// assessments that actor may see.
	FindProjectFigures(ctx context.Context, id string, actor Actor) (ProjectFigures, error)
}
