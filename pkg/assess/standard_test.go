package assess

import (
	"errors"
	"slices"
	"sort"
	"strings"
	"testing"
)

func TestNaturalKeySortsAsPeopleRead(t *testing.T) {
	want := []string{"1", "1.1", "1.2", "1.10", "2", "2.a", "2.B", "2.c", "10", "V1.2.9", "V1.2.10", "V1.10.1", "v2", "V10"}
	got := slices.Clone(want)
	for i, j := 0, len(got)-1; i < j; i, j = i+1, j-1 {
		got[i], got[j] = got[j], got[i]
	}
	sort.SliceStable(got, func(i, j int) bool { return NaturalKey(got[i]) < NaturalKey(got[j]) })
	if !slices.Equal(got, want) {
		t.Errorf("natural order:\n got %q\nwant %q", got, want)
	}
	if NaturalKey("V01.002") != NaturalKey("v1.2") {
		t.Error("leading zeros and case do not matter")
	}
}

// TestStandardLifecycleEveryPair checks the four-eyes lifecycle for every from × to pair.
func TestStandardLifecycleEveryPair(t *testing.T) {
	allowed := map[StandardState][]StandardState{
		StandardDraft:     {StandardInReview},
		StandardInReview:  {StandardPublished, StandardDraft},
		StandardPublished: {StandardRetired},
	}
	checkLifecycle(t, StandardLifecycle, StandardLifecycle.States(), allowed)
}

// fields returns the fields named by a validation error.
func fields(err error) []string {
	var e *Error
	if !errors.As(err, &e) {
		return nil
	}
	var out []string
	for _, d := range e.Details {
		out = append(out, d.Field)
	}
	return out
}

func TestNewStandardValidate(t *testing.T) {
	ok := NewStandard{Identifier: "  owasp-asvs ", StandardVersion: " 5.0.0", Name: " ASVS ", Owner: " OWASP "}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	if ok.Identifier != "owasp-asvs" || ok.StandardVersion != "5.0.0" || ok.Name != "ASVS" || ok.Owner != "OWASP" {
		t.Errorf("not trimmed: %+v", ok)
	}
	cases := []struct {
		name  string
		in    NewStandard
		field string
	}{
		{"blank identifier", NewStandard{Identifier: "  ", StandardVersion: "1", Name: "n"}, "identifier"},
		{"control character", NewStandard{Identifier: "a\u0007b", StandardVersion: "1", Name: "n"}, "identifier"},
		{"line break in identifier", NewStandard{Identifier: "a\nb", StandardVersion: "1", Name: "n"}, "identifier"},
		{"NUL", NewStandard{Identifier: "a", StandardVersion: "1", Name: "n\x00"}, "name"},
		{"NUL in description", NewStandard{Identifier: "a", StandardVersion: "1", Name: "n", Description: "x\x00"}, "description"},
		{"no version", NewStandard{Identifier: "a", Name: "n"}, "standardVersion"},
		{"no name", NewStandard{Identifier: "a", StandardVersion: "1"}, "name"},
		{"long identifier", NewStandard{Identifier: strings.Repeat("x", 201), StandardVersion: "1", Name: "n"}, "identifier"},
		{"reference without url", NewStandard{Identifier: "a", StandardVersion: "1", Name: "n",
			ExternalReferences: []ExternalReference{{Type: "website"}}}, "externalReferences[0].url"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.in.Validate()
			if ErrorCode(err) != ECodeValidation || !slices.Contains(fields(err), c.field) {
				t.Errorf("want 400 naming %s, got %v (%v)", c.field, err, fields(err))
			}
		})
	}
}

func TestStandardUpdateContent(t *testing.T) {
	tags := []string{"tg_x"}
	if (&StandardUpdate{Version: 1, TagIDs: &tags}).ChangesContent() {
		t.Error("a tag change is not a content change")
	}
	name := "x"
	if !(&StandardUpdate{Version: 1, Name: &name}).ChangesContent() {
		t.Error("a name change is a content change")
	}
}

func TestRejectRequestNeedsAReason(t *testing.T) {
	for _, reason := range []string{"", "   ", strings.Repeat("x", 2001)} {
		r := RejectRequest{Reason: reason}
		if err := r.Validate(); ErrorCode(err) != ECodeValidation || !slices.Contains(fields(err), "reason") {
			t.Errorf("%q: want 400 naming reason, got %v", reason, err)
		}
	}
	r := RejectRequest{Reason: "  Missing V5.\n"}
	if err := r.Validate(); err != nil || r.Reason != "Missing V5." {
		t.Errorf("got %v, %q", err, r.Reason)
	}
}

func TestBulkRequirementsValidate(t *testing.T) {
	b := BulkRequirements{Requirements: []BulkRequirement{
		{Identifier: "V1"}, {Identifier: "V1.1", ParentIdentifier: "V1"}, {Identifier: "V1"}, {Identifier: "V2", ParentIdentifier: "V2"},
	}}
	got := fields(b.Validate())
	want := []string{"requirements[2].identifier", "requirements[3].parentIdentifier"}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if err := (&BulkRequirements{}).Validate(); ErrorCode(err) != ECodeValidation {
		t.Errorf("an empty bulk write is refused, got %v", err)
	}
}

func TestRequirementAndLevelValidate(t *testing.T) {
	bad := -1
	n := NewRequirement{Identifier: "V1", Position: &bad, OpenCRE: []string{""}, Properties: []Property{{Name: ""}}}
	if got := fields(n.Validate()); !slices.Equal(got, []string{"openCre[0]", "properties[0].name", "position"}) {
		t.Errorf("got %v", got)
	}
	id := " "
	u := RequirementUpdate{Version: 1, Identifier: &id}
	if got := fields(u.Validate()); !slices.Equal(got, []string{"identifier"}) {
		t.Errorf("got %v", got)
	}
	l := NewLevel{Identifier: "L\t1"}
	if got := fields(l.Validate()); !slices.Equal(got, []string{"identifier"}) {
		t.Errorf("got %v", got)
	}
	m := RequirementMove{Position: MaxPosition + 1}
	if got := fields(m.Validate()); !slices.Equal(got, []string{"position"}) {
		t.Errorf("got %v", got)
	}
}

func TestStandardUsageError(t *testing.T) {
	u := StandardUsage{Projects: 2, Entities: 1, ProjectNames: []string{"A", "B"}, EntityNames: []string{"Shop"}}
	var e *Error
	if !u.InUse() || !errors.As(u.Error(), &e) || e.Code != ECodeBusinessRule || e.Details[0].Code != "in_use" || len(e.Details) != 4 {
		t.Errorf("got %+v", u.Error())
	}
	if (StandardUsage{}).InUse() {
		t.Error("nothing uses it")
	}
}
