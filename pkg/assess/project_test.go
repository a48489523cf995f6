package assess

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestProjectLifecycle checks every from × to pair of the project state machine against
// the table of docs/catalogue.md.
func TestProjectLifecycle(t *testing.T) {
	all := []ProjectState{ProjectNew, ProjectInProgress, ProjectOnHold, ProjectComplete, ProjectOperational, ProjectRetired}
	allowed := map[ProjectState][]ProjectState{
		ProjectNew:         {ProjectInProgress, ProjectOnHold, ProjectRetired},
		ProjectInProgress:  {ProjectOnHold, ProjectComplete, ProjectRetired},
		ProjectOnHold:      {ProjectInProgress, ProjectRetired},
		ProjectComplete:    {ProjectOperational, ProjectInProgress, ProjectRetired},
		ProjectOperational: {ProjectInProgress, ProjectRetired},
		ProjectRetired:     nil,
	}
	checkLifecycle(t, ProjectLifecycle, all, allowed)
}

func TestProjectOverdue(t *testing.T) {
	cases := []struct {
		state    ProjectState
		due      string
		archived bool
		want     bool
	}{
		{ProjectInProgress, "2025-03-09", false, true},
		{ProjectNew, "2025-03-09", false, true},
		{ProjectOnHold, "2025-03-09", false, true},
		{ProjectInProgress, "2025-03-10", false, false}, // due today is not overdue yet
		{ProjectInProgress, "", false, false},
		{ProjectComplete, "2025-01-01", false, false},
		{ProjectOperational, "2025-01-01", false, false},
		{ProjectRetired, "2025-01-01", false, false},
		{ProjectInProgress, "2025-01-01", true, false},
	}
	for _, c := range cases {
		if got := ProjectOverdue(c.state, c.due, "2025-03-10", c.archived); got != c.want {
			t.Errorf("ProjectOverdue(%s, %q, archived %v) = %v, want %v", c.state, c.due, c.archived, got, c.want)
		}
	}
}

// projectDetailFields returns the fields the details of a validation error name.
func projectDetailFields(t *testing.T, err error) []string {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || e.Code != ECodeValidation {
		t.Fatalf("want validation_failed, got %v", err)
	}
	var out []string
	for _, d := range e.Details {
		out = append(out, d.Field+":"+d.Code)
	}
	return out
}

func TestNewProjectValidate(t *testing.T) {
	p := NewProject{Name: "  Shop review  ", Description: " d ", StartDate: "2025-01-01", DueDate: "2025-01-01",
		StandardIDs: []string{"st_b", " st_a", "st_b", ""}, TagIDs: nil}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	if p.Name != "Shop review" || p.Description != "d" || p.State != ProjectNew {
		t.Errorf("not normalised: %+v", p)
	}
	if !slices.Equal(p.StandardIDs, []string{"st_a", "st_b"}) || p.TagIDs != nil {
		t.Errorf("id sets: %q %q", p.StandardIDs, p.TagIDs)
	}
	for _, c := range []struct {
		name string
		p    NewProject
		want []string
	}{
		{"blank name", NewProject{Name: "  "}, []string{"name:required"}},
		{"long name", NewProject{Name: strings.Repeat("é", 301)}, []string{"name:too_long"}},
		{"control character", NewProject{Name: "a\tb"}, []string{"name:invalid"}},
		{"retired at birth", NewProject{Name: "x", State: ProjectRetired}, []string{"state:invalid"}},
		{"complete at birth", NewProject{Name: "x", State: ProjectComplete}, []string{"state:invalid"}},
		{"unknown state", NewProject{Name: "x", State: "done"}, []string{"state:invalid"}},
		{"not a date", NewProject{Name: "x", StartDate: "1/2/2025"}, []string{"startDate:invalid"}},
		{"no such day", NewProject{Name: "x", DueDate: "2025-02-30"}, []string{"dueDate:invalid"}},
		{"year zero", NewProject{Name: "x", DueDate: "0000-01-01"}, []string{"dueDate:invalid"}},
		{"due before start", NewProject{Name: "x", StartDate: "2025-02-01", DueDate: "2025-01-31"}, []string{"dueDate:before_start"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := projectDetailFields(t, c.p.Validate()); !slices.Equal(got, c.want) {
				t.Errorf("details %v, want %v", got, c.want)
			}
		})
	}
	for _, s := range ProjectInitialStates {
		p := NewProject{Name: "x", State: s}
		if err := p.Validate(); err != nil {
			t.Errorf("a project may start as %s: %v", s, err)
		}
	}
}

func TestProjectUpdateValidate(t *testing.T) {
	name, clear, ids := " New name ", "", []string{"en_b", "en_a", "en_a"}
	u := ProjectUpdate{Version: 1, Name: &name, DueDate: &clear, EntityIDs: &ids}
	if err := u.Validate(); err != nil {
		t.Fatal(err)
	}
	if *u.Name != "New name" || *u.DueDate != "" || !slices.Equal(*u.EntityIDs, []string{"en_a", "en_b"}) {
		t.Errorf("not normalised: %q %q %q", *u.Name, *u.DueDate, *u.EntityIDs)
	}
	bad := "2025-13-01"
	if got := projectDetailFields(t, (&ProjectUpdate{StartDate: &bad}).Validate()); !slices.Equal(got, []string{"startDate:invalid"}) {
		t.Errorf("details %v", got)
	}
	if got := projectDetailFields(t, (&ProjectStateChange{State: "done"}).Validate()); !slices.Equal(got, []string{"state:invalid"}) {
		t.Errorf("details %v", got)
	}
}

func TestFiguresOf(t *testing.T) {
	f := FiguresOf(Project{Overdue: true, DueDate: "2025-01-01", Standards: []ProjectStandard{{Name: "ASVS", State: StandardRetired}}},
		ProjectAssessmentCounts{})
	if f.Assessments.Total != 0 || f.Assessments.PercentComplete != nil || f.EvidenceCoverage.Percent != nil ||
		f.Conformance.AverageScore != nil || !f.Overdue.Project || len(f.Assessments.ByState) != 7 {
		t.Errorf("figures %+v", f)
	}
	var codes []string
	for _, w := range f.Warnings {
		codes = append(codes, w.Code)
	}
	if !slices.Equal(codes, []string{"standard_not_published", "overdue"}) {
		t.Errorf("warnings %v", codes)
	}
	if w := FiguresOf(Project{}, ProjectAssessmentCounts{}).Warnings; len(w) != 1 || w[0].Code != "no_standards" {
		t.Errorf("warnings %v", w)
	}

	f = FiguresOf(Project{Standards: []ProjectStandard{{Name: "ASVS", State: StandardPublished}}}, ProjectAssessmentCounts{
		ByState: map[AssessmentState]int{AssessmentInProgress: 2, AssessmentComplete: 1, AssessmentArchived: 1, AssessmentCancelled: 1},
		Overdue: 1, Requirements: 3, Answered: 2, WithEvidence: 1, ScoreSum: 7500 + 5000, Scored: 2, ProgressSum: 10000 + 10000 + 5000 + 1667})
	a := f.Assessments
	if a.Total != 5 || a.Complete != 2 || a.InProgress != 2 || a.ByState[AssessmentNew] != 0 || a.ByState[AssessmentCancelled] != 1 ||
		*a.PercentComplete != 66.67 || *f.EvidenceCoverage.Percent != 33.33 || f.Overdue.Assessments != 1 ||
		*f.Conformance.AverageScore != 62.5 || f.Conformance.Assessed != 2 {
		t.Errorf("figures %+v", f)
	}
	if len(f.Warnings) != 1 || f.Warnings[0].Code != "assessments_overdue" {
		t.Errorf("warnings %v", f.Warnings)
	}
}

func TestAssessmentProgressPoints(t *testing.T) {
	cases := []struct {
		state                  AssessmentState
		requirements, answered int
		want                   int64
	}{
		{AssessmentNew, 0, 0, 0},
		{AssessmentPending, 0, 0, 0},
		{AssessmentInProgress, 3, 2, 6666},
		{AssessmentOnHold, 4, 4, 10000},
		{AssessmentComplete, 3, 3, 10000},
		{AssessmentArchived, 0, 0, 10000},
	}
	for _, c := range cases {
		if got := AssessmentProgressPoints(c.state, c.requirements, c.answered); got != c.want {
			t.Errorf("%s with %d of %d answered: %d, want %d", c.state, c.answered, c.requirements, got, c.want)
		}
	}
}

// TestProjectCompletionAndWarnings (issue 26 item 2): completion counts every assessment
// not cancelled (one not started as 0), assessments due after the project are warned of,
// and the moves of the project's state worth making are suggested, never made.
func TestProjectCompletionAndWarnings(t *testing.T) {
	published := []ProjectStandard{{Name: "ASVS", State: StandardPublished}}
	cases := map[string]struct {
		project Project
		counts  ProjectAssessmentCounts
		percent float64
		codes   []string
	}{
		"one complete, one not started": {Project{State: ProjectNew, Standards: published},
			ProjectAssessmentCounts{ByState: map[AssessmentState]int{AssessmentComplete: 1, AssessmentNew: 1}, ProgressSum: 10000},
			50, []string{"work_started"}},
		"all finished, a cancelled one aside": {Project{State: ProjectInProgress, Standards: published},
			ProjectAssessmentCounts{ByState: map[AssessmentState]int{AssessmentComplete: 1, AssessmentArchived: 1, AssessmentCancelled: 1}, ProgressSum: 20000},
			100, []string{"ready_to_complete"}},
		"due after the project": {Project{State: ProjectInProgress, DueDate: "2026-06-30", Standards: published},
			ProjectAssessmentCounts{ByState: map[AssessmentState]int{AssessmentInProgress: 2}, ProgressSum: 2500, DueAfterProject: 1},
			12.5, []string{"assessments_due_after_project"}},
		"complete already": {Project{State: ProjectComplete, Standards: published},
			ProjectAssessmentCounts{ByState: map[AssessmentState]int{AssessmentComplete: 2}, ProgressSum: 20000},
			100, nil},
	}
	for name, c := range cases {
		f := FiguresOf(c.project, c.counts)
		if f.Assessments.PercentComplete == nil || *f.Assessments.PercentComplete != c.percent {
			t.Errorf("%s: completion %v, want %v", name, f.Assessments.PercentComplete, c.percent)
		}
		var codes []string
		for _, w := range f.Warnings {
			codes = append(codes, w.Code)
			if w.Severity == "" {
				t.Errorf("%s: %s has no severity", name, w.Code)
			}
		}
		if !slices.Equal(codes, c.codes) {
			t.Errorf("%s: warnings %v, want %v", name, codes, c.codes)
		}
	}
	if f := FiguresOf(Project{}, ProjectAssessmentCounts{ByState: map[AssessmentState]int{AssessmentCancelled: 1}}); f.Assessments.PercentComplete != nil {
		t.Errorf("only a cancelled assessment: completion %v, want none", *f.Assessments.PercentComplete)
	}
}
