package assess

import (
	"errors"
	"slices"
	"testing"
	"time"
)

// fieldsOf answers the fields the details of a validation error name (nil for no error).
func fieldsOf(t *testing.T, err error) []string {
	t.Helper()
	if err == nil {
		return nil
	}
	var e *Error
	if !errors.As(err, &e) || e.Code != ECodeValidation {
		t.Fatalf("want validation_failed, got %v", err)
	}
	var out []string
	for _, d := range e.Details {
		out = append(out, d.Field)
	}
	return out
}

func TestPortfolioQueryValidate(t *testing.T) {
	project, standard := NewID(PrefixProject, time.Now()), NewID(PrefixStandard, time.Now())
	cases := []struct {
		name string
		q    PortfolioQuery
		want []string
	}{
		{"nothing", PortfolioQuery{}, nil},
		{"every filter", PortfolioQuery{Project: " " + project + " ", Standard: standard, EntityType: "product", Q: "shop"}, nil},
		{"a standard as the project", PortfolioQuery{Project: standard}, []string{"project"}},
		{"a project as the standard", PortfolioQuery{Standard: project}, []string{"standard"}},
		{"garbage ids", PortfolioQuery{Project: "pr_", Standard: "st_x'--"}, []string{"project", "standard"}},
		{"unknown entity type", PortfolioQuery{EntityType: "planet"}, []string{"entityType"}},
		{"control characters", PortfolioQuery{Q: "a\x00b"}, []string{"q"}},
	}
	for _, c := range cases {
		q := c.q
		if got := fieldsOf(t, q.Validate()); !slices.Equal(got, c.want) {
			t.Errorf("%s: fields %v, want %v", c.name, got, c.want)
		}
	}
	q := PortfolioQuery{Project: " " + project + " ", Q: "  shop "}
	if err := q.Validate(); err != nil || q.Project != project || q.Q != "shop" {
		t.Errorf("trimmed: %+v, %v", q, err)
	}
}

func TestScoreHistoryQueryValidate(t *testing.T) {
	for _, c := range []struct {
		standard string
		valid    bool
	}{{"", true}, {NewID(PrefixStandard, time.Now()), true}, {" " + NewID(PrefixStandard, time.Now()) + " ", true},
		{NewID(PrefixEntity, time.Now()), false}, {"st_nope", false}} {
		q := ScoreHistoryQuery{Standard: c.standard}
		if err := q.Validate(); (err == nil) != c.valid {
			t.Errorf("%q: %v, want valid %v", c.standard, err, c.valid)
		}
	}
}
