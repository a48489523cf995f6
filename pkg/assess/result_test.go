package assess

import (
	"errors"
	"testing"
	"time"
)

func TestRationaleWords(t *testing.T) {
	for s, n := range map[string]int{"": 0, "  one  two\tthree\n": 3, "- – … --": 0, "a-b c3 ü 42": 4, "(x)": 1} {
		if got := RationaleWords(s); got != n {
			t.Errorf("%q: %d words, want %d", s, got, n)
		}
	}
	if !RationaleSufficient("", 0) || RationaleSufficient("one two", 3) {
		t.Error("RationaleSufficient")
	}
}

func TestResultUpdateValidate(t *testing.T) {
	bad, yes := Result("maybe"), ResultYes
	for _, tc := range []struct {
		u     ResultUpdate
		min   int
		field string
		code  string
	}{
		{ResultUpdate{Result: &bad}, 0, "result", "invalid"},
		{ResultUpdate{Result: &yes, Rationale: "two words"}, 3, "rationale", "too_short"},
		{ResultUpdate{Result: &yes}, 0, "", ""},
		{ResultUpdate{Rationale: "draft"}, 15, "", ""},
		{ResultUpdate{Rationale: "bad \x00"}, 0, "rationale", "invalid_character"},
	} {
		err := tc.u.Validate(tc.min)
		if tc.code == "" {
			if err != nil {
				t.Errorf("%+v: %v", tc.u, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) || e.Details[0].Field != tc.field || e.Details[0].Code != tc.code {
			t.Errorf("%+v: got %v, want %s %s", tc.u, err, tc.field, tc.code)
		}
	}
}

func TestBulkResultsValidate(t *testing.T) {
	yes := ResultYes
	id := NewID(PrefixAssessmentRequirement, time.Now())
	b := BulkResults{Items: []BulkResultItem{{ID: id, Result: &yes, Rationale: "one two three"}, {ID: "x"}, {ID: id}}}
	var e *Error
	if !errors.As(b.Validate(3), &e) || len(e.Details) != 2 || e.Details[0].Field != "items[1].id" || e.Details[1].Code != "duplicate" {
		t.Fatalf("got %+v", e.Details)
	}
	if err := (&BulkResults{}).Validate(0); ErrorCode(err) != ECodeValidation {
		t.Errorf("an empty request: %v", err)
	}
	if _, err := (AssessmentRequirementFilter{Result: "yes,,unanswered "}).Results(); err != nil {
		t.Error(err)
	}
	if _, err := (AssessmentRequirementFilter{Result: "yes,maybe"}).Results(); ErrorCode(err) != ECodeValidation {
		t.Errorf("unknown result: %v", err)
	}
}
