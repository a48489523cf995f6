package assess

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestAssessmentLifecycle checks every from × to pair of the assessment state machine
// against the table of docs/assessments.md (reference-backend §2.1).
func TestAssessmentLifecycle(t *testing.T) {
	all := []AssessmentState{AssessmentNew, AssessmentPending, AssessmentInProgress, AssessmentOnHold,
		AssessmentComplete, AssessmentCancelled, AssessmentArchived}
	allowed := map[AssessmentState][]AssessmentState{
		AssessmentNew:        {AssessmentPending, AssessmentInProgress, AssessmentCancelled},
		AssessmentPending:    {AssessmentInProgress, AssessmentOnHold, AssessmentCancelled},
		AssessmentInProgress: {AssessmentOnHold, AssessmentComplete, AssessmentCancelled},
		AssessmentOnHold:     {AssessmentInProgress, AssessmentCancelled},
		AssessmentComplete:   {AssessmentInProgress, AssessmentArchived},
		AssessmentCancelled:  nil,
		AssessmentArchived:   nil,
	}
	checkLifecycle(t, AssessmentLifecycle, all, allowed)
}

func TestAssessmentReadOnlyAndOverdue(t *testing.T) {
	for _, s := range AssessmentLifecycle.States() {
		want := s == AssessmentComplete || s == AssessmentArchived || s == AssessmentCancelled
		if AssessmentReadOnly(s) != want {
			t.Errorf("read-only %s: got %v", s, !want)
		}
		if got := AssessmentOverdue(s, "2025-03-09", "2025-03-10"); got != !want {
			t.Errorf("overdue %s: got %v", s, got)
		}
	}
	if AssessmentOverdue(AssessmentInProgress, "2025-03-10", "2025-03-10") {
		t.Error("due today is not overdue yet")
	}
	if AssessmentOverdue(AssessmentInProgress, "", "2025-03-10") {
		t.Error("without a due date nothing is overdue")
	}
}

// TestAssessmentStateLists: the read-only and finished states, each a state of the
// lifecycle named once; a finished assessment is read-only; final states are read-only.
func TestAssessmentStateLists(t *testing.T) {
	states := AssessmentLifecycle.States()
	for name, c := range map[string]struct {
		list []AssessmentState
		want []AssessmentState
	}{
		"read-only": {ReadOnlyAssessmentStates, []AssessmentState{AssessmentComplete, AssessmentArchived, AssessmentCancelled}},
		"finished":  {FinishedAssessmentStates, []AssessmentState{AssessmentComplete, AssessmentArchived}},
	} {
		got := slices.Clone(c.list)
		slices.Sort(got)
		want := slices.Clone(c.want)
		slices.Sort(want)
		if !slices.Equal(got, want) || len(slices.Compact(got)) != len(c.list) {
			t.Errorf("%s: %v, want %v", name, c.list, c.want)
		}
	}
	for _, s := range states {
		if AssessmentFinished(s) != slices.Contains(FinishedAssessmentStates, s) {
			t.Errorf("finished %s", s)
		}
		if AssessmentFinished(s) && !AssessmentReadOnly(s) {
			t.Errorf("%s is finished but takes changes", s)
		}
		if len(AssessmentLifecycle.Allowed(s)) == 0 && !AssessmentReadOnly(s) {
			t.Errorf("%s is final but takes changes", s)
		}
	}
}

// fieldCodes returns "field:code" of every detail of err.
func fieldCodes(t *testing.T, err error) []string {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("want *Error, got %v", err)
	}
	var out []string
	for _, d := range e.Details {
		out = append(out, d.Field+":"+d.Code)
	}
	return out
}

func TestNewAssessmentValidate(t *testing.T) {
	ok := NewAssessment{Title: "  Shop review ", EntityID: " en_1 ", DueDate: " 2025-06-30 ",
		Standards:   []AssessmentStandardInput{{StandardID: " st_a ", LevelID: " lv_1 "}, {StandardID: "st_b"}},
		AssessorIDs: []string{"u_2", " u_1", "u_2", ""}, TagIDs: []string{"tg_1", "tg_1"}}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	if ok.Title != "Shop review" || ok.EntityID != "en_1" || ok.DueDate != "2025-06-30" {
		t.Errorf("not trimmed: %+v", ok)
	}
	if ok.Standards[0] != (AssessmentStandardInput{StandardID: "st_a", LevelID: "lv_1"}) {
		t.Errorf("standard not trimmed: %+v", ok.Standards[0])
	}
	if !slices.Equal(ok.AssessorIDs, []string{"u_1", "u_2"}) || !slices.Equal(ok.TagIDs, []string{"tg_1"}) {
		t.Errorf("sets not normalised: %v %v", ok.AssessorIDs, ok.TagIDs)
	}
	if ok.CompletionEvidence != CompletionEvidenceEveryPositive {
		t.Errorf("no evidence rule named: %q, want the default every_positive", ok.CompletionEvidence)
	}
	for _, rule := range CompletionEvidenceRules {
		named := NewAssessment{Title: "T", EntityID: "en_1", CompletionEvidence: rule}
		if err := named.Validate(); err != nil || named.CompletionEvidence != rule {
			t.Errorf("%s: %v, kept %q", rule, err, named.CompletionEvidence)
		}
	}
	many := make([]AssessmentStandardInput, 21)
	for i := range many {
		many[i].StandardID = "st_" + strings.Repeat("x", i+1)
	}
	cases := []struct {
		name string
		in   NewAssessment
		want []string
	}{
		{"no title", NewAssessment{Title: "  ", EntityID: "en_1"}, []string{"title:required"}},
		{"long title", NewAssessment{Title: strings.Repeat("é", 301), EntityID: "en_1"}, []string{"title:too_long"}},
		{"control character", NewAssessment{Title: "a\tb", EntityID: "en_1"}, []string{"title:invalid"}},
		{"no entity", NewAssessment{Title: "T"}, []string{"entityId:required"}},
		{"bad date", NewAssessment{Title: "T", EntityID: "en_1", DueDate: "2025-02-30"}, []string{"dueDate:invalid"}},
		{"standard twice", NewAssessment{Title: "T", EntityID: "en_1",
			Standards: []AssessmentStandardInput{{StandardID: "st_a"}, {StandardID: " st_a"}}}, []string{"standards:duplicate"}},
		{"blank standard", NewAssessment{Title: "T", EntityID: "en_1",
			Standards: []AssessmentStandardInput{{StandardID: " "}}}, []string{"standards:required"}},
		{"too many standards", NewAssessment{Title: "T", EntityID: "en_1", Standards: many}, []string{"standards:too_many"}},
		{"several faults at once", NewAssessment{DueDate: "soon"}, []string{"title:required", "entityId:required", "dueDate:invalid"}},
		{"unknown evidence rule", NewAssessment{Title: "T", EntityID: "en_1", CompletionEvidence: "all"}, []string{"completionEvidence:invalid"}},
		{"evidence rule in another case", NewAssessment{Title: "T", EntityID: "en_1", CompletionEvidence: "None"}, []string{"completionEvidence:invalid"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.in.Validate()
			if got := fieldCodes(t, err); !slices.Equal(got, c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}

func TestAssessmentUpdateValidate(t *testing.T) {
	title, due, project, desc := " New title ", "", " pr_1 ", " text "
	tags := []string{"tg_2", "tg_1", "tg_2"}
	u := AssessmentUpdate{Version: 1, Title: &title, DueDate: &due, ProjectID: &project, Description: &desc, TagIDs: &tags}
	if err := u.Validate(); err != nil {
		t.Fatal(err)
	}
	if *u.Title != "New title" || *u.ProjectID != "pr_1" || *u.Description != "text" || *u.DueDate != "" {
		t.Errorf("not normalised: %q %q %q %q", *u.Title, *u.ProjectID, *u.Description, *u.DueDate)
	}
	if !slices.Equal(*u.TagIDs, []string{"tg_1", "tg_2"}) {
		t.Errorf("tags %v", *u.TagIDs)
	}
	blank, bad := "", "30.06.2025"
	dup := []AssessmentStandardInput{{StandardID: "st_a"}, {StandardID: "st_a"}}
	rule := CompletionEvidence("every")
	err := (&AssessmentUpdate{Version: 1, Title: &blank, DueDate: &bad, Standards: &dup, CompletionEvidence: &rule}).Validate()
	if got := fieldCodes(t, err); !slices.Equal(got, []string{"title:required", "dueDate:invalid", "standards:duplicate",
		"completionEvidence:invalid"}) {
		t.Errorf("got %v", got)
	}
	for _, rule := range CompletionEvidenceRules {
		if err := (&AssessmentUpdate{Version: 1, CompletionEvidence: &rule}).Validate(); err != nil {
			t.Errorf("%s: %v", rule, err)
		}
	}
}

func TestTeamUpdateValidate(t *testing.T) {
	tu := TeamUpdate{Version: 1, AssessorIDs: []string{" u_2", "u_1", "u_1"}}
	if err := tu.Validate(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tu.AssessorIDs, []string{"u_1", "u_2"}) || tu.AssesseeIDs == nil || len(tu.AssesseeIDs) != 0 {
		t.Errorf("not normalised: %v %v", tu.AssessorIDs, tu.AssesseeIDs)
	}
	big := make([]string, 201)
	for i := range big {
		big[i] = "u_" + strings.Repeat("x", i+1)
	}
	if got := fieldCodes(t, (&TeamUpdate{Version: 1, AssesseeIDs: big}).Validate()); !slices.Equal(got, []string{"assesseeIds:too_many"}) {
		t.Errorf("got %v", got)
	}
}

func TestAssessmentTransitionValidate(t *testing.T) {
	tr := AssessmentTransition{To: AssessmentOnHold, Version: 1, Reason: "  waiting for the supplier "}
	if err := tr.Validate(); err != nil {
		t.Fatal(err)
	}
	if tr.Reason != "waiting for the supplier" {
		t.Errorf("reason %q", tr.Reason)
	}
	for _, to := range []AssessmentState{"", "completed", "deleted"} {
		if got := fieldCodes(t, (&AssessmentTransition{To: to, Version: 1}).Validate()); !slices.Equal(got, []string{"to:invalid"}) {
			t.Errorf("%q: got %v", to, got)
		}
	}
}

func TestAssessmentFilterValidate(t *testing.T) {
	f := AssessmentFilter{DueBefore: " 2025-06-30 "}
	if err := f.Validate(); err != nil || f.DueBefore != "2025-06-30" {
		t.Fatalf("%v %q", err, f.DueBefore)
	}
	if got := fieldCodes(t, (&AssessmentFilter{DueBefore: "tomorrow"}).Validate()); !slices.Equal(got, []string{"dueBefore:invalid"}) {
		t.Errorf("got %v", got)
	}
}
