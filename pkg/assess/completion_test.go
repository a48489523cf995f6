package assess

import (
	"errors"
	"slices"
	"testing"
)

// answers makes one answer per result given, of standard st, with a rationale of words
// words (empty when 0).
func answers(st string, words int, results ...Result) []RequirementAnswer {
	out := make([]RequirementAnswer, len(results))
	for i, r := range results {
		out[i] = RequirementAnswer{StandardID: st, Result: r, RationaleEmpty: words == 0, RationaleWords: words}
	}
	return out
}

func TestCompletionBlockers(t *testing.T) {
	blank := RequirementAnswer{StandardID: "st_a", Result: ResultYes, RationaleEmpty: true}
	dashes := RequirementAnswer{StandardID: "st_a", Result: ResultYes} // "- …": not empty, no word
	for _, c := range []struct {
		name     string
		facts    CompletionFacts
		minWords int
		want     []string // field:code=message of each detail, in order; nil: may complete
	}{
		{"nothing loaded: nothing to answer or cover", CompletionFacts{}, 15, nil},
		{"all answered with rationales and evidence", CompletionFacts{Answers: answers("st_a", 15, ResultYes, ResultNo, ResultPartial),
			EvidenceLinked: true}, 15, nil},
		{"unanswered and no evidence", CompletionFacts{Answers: answers("st_a", 0, "", "")}, 15,
			[]string{"requirements:unanswered=2", "evidence:no_evidence=Link evidence to at least one requirement."}},
		{"every rule broken, in order", CompletionFacts{Answers: append(answers("st_a", 0, ""), answers("st_b", 2, ResultYes, ResultNo)...)}, 15,
			[]string{"requirements:unanswered=1", "requirements:missing_rationale=2", "evidence:no_evidence=Link evidence to at least one requirement."}},
		{"unanswered only, evidence linked", CompletionFacts{Answers: answers("st_a", 0, "", "", ""), EvidenceLinked: true}, 15,
			[]string{"requirements:unanswered=3"}},
		{"a rationale of exactly the minimum is enough", CompletionFacts{Answers: answers("st_a", 3, ResultYes), EvidenceLinked: true}, 3, nil},
		{"one word short", CompletionFacts{Answers: answers("st_a", 2, ResultYes), EvidenceLinked: true}, 3,
			[]string{"requirements:missing_rationale=1"}},
		{"not applicable needs its rationale too", CompletionFacts{Answers: answers("st_a", 1, ResultNotApplicable)}, 3,
			[]string{"requirements:missing_rationale=1"}},
		{"every answer not applicable: no evidence needed", CompletionFacts{Answers: answers("st_a", 15, ResultNotApplicable, ResultNotApplicable)}, 15, nil},
		{"not applicable and unanswered: the unanswered one may need evidence", CompletionFacts{
			Answers: append(answers("st_a", 15, ResultNotApplicable), answers("st_a", 0, "")...)}, 15,
			[]string{"requirements:unanswered=1", "evidence:no_evidence=Link evidence to at least one requirement."}},
		{"no minimum: an empty rationale still blocks", CompletionFacts{Answers: []RequirementAnswer{blank}, EvidenceLinked: true}, 0,
			[]string{"requirements:missing_rationale=1"}},
		{"no minimum: a rationale without words is one", CompletionFacts{Answers: []RequirementAnswer{dashes}, EvidenceLinked: true}, 0, nil},
		{"a minimum: a rationale without words is too short", CompletionFacts{Answers: []RequirementAnswer{dashes}, EvidenceLinked: true}, 1,
			[]string{"requirements:missing_rationale=1"}},
		{"unanswered drafts do not count as missing rationales", CompletionFacts{Answers: answers("st_a", 1, ""), EvidenceLinked: true}, 15,
			[]string{"requirements:unanswered=1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := CompletionBlockers(c.facts, c.minWords)
			if c.want == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("want *Error, got %v", err)
			}
			if e.Code != ECodeBusinessRule || e.Message != "The assessment cannot be completed yet: every requirement needs a result "+
				"and a rationale, and evidence must be linked." {
				t.Errorf("error %s %q", e.Code, e.Message)
			}
			var got []string
			for _, d := range e.Details {
				got = append(got, d.Field+":"+d.Code+"="+d.Message)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("details %q, want %q", got, c.want)
			}
		})
	}
}

func TestResultCountsScore(t *testing.T) {
	for _, c := range []struct {
		yes, partial, no int
		want             Score // -1: no score
	}{
		{0, 0, 0, -1},
		{1, 0, 0, 10000},
		{0, 0, 1, 0},
		{0, 1, 0, 5000},
		{1, 1, 1, 5000},
		{2, 1, 1, 6250},
		{1, 0, 2, 3333},   // 33.333…
		{2, 0, 1, 6667},   // 66.666…
		{1, 0, 7, 1250},   // 12.5
		{0, 1, 15, 313},   // 3.125: halves away from zero, as PostgreSQL's round
		{0, 1, 79, 63},    // 0.625
		{0, 1, 63, 78},    // 0.78125
		{5, 3, 434, 147},  // 1.4705…
		{441, 0, 1, 9977}, // 99.773…
	} {
		got := ResultCounts{Yes: c.yes, Partial: c.partial, No: c.no}.Score()
		switch {
		case c.want < 0 && got != nil:
			t.Errorf("%d/%d/%d: score %d, want none", c.yes, c.partial, c.no, *got)
		case c.want >= 0 && (got == nil || *got != c.want):
			t.Errorf("%d/%d/%d: score %v, want %d", c.yes, c.partial, c.no, got, c.want)
		}
	}
	if got := Score(3333).Float(); got != 33.33 {
		t.Errorf("Float %v", got)
	}
}

func TestScoreAssessment(t *testing.T) {
	// docs/assessments.md: yes, partial, no on ASVS and yes, n/a on SSDF give ASVS 50.00,
	// SSDF 100.00 and 62.50 overall. A standard answered only not applicable has no score;
	// unanswered requirements count for nothing.
	var in []RequirementAnswer
	in = append(in, answers("st_asvs", 15, ResultYes, ResultPartial, ResultNo)...)
	in = append(in, answers("st_ssdf", 15, ResultYes, ResultNotApplicable, "")...)
	in = append(in, answers("st_na", 15, ResultNotApplicable)...)
	got := ScoreAssessment(in)
	if got.Overall == nil || *got.Overall != 6250 {
		t.Errorf("overall %v", got.Overall)
	}
	want := map[string]Score{"st_asvs": 5000, "st_ssdf": 10000}
	if len(got.ByStandard) != 3 || got.ByStandard["st_na"] != nil {
		t.Errorf("by standard %v", got.ByStandard)
	}
	for id, s := range want {
		if got.ByStandard[id] == nil || *got.ByStandard[id] != s {
			t.Errorf("%s: %v, want %d", id, got.ByStandard[id], s)
		}
	}
	if none := ScoreAssessment(answers("st_na", 15, ResultNotApplicable)); none.Overall != nil {
		t.Errorf("every answer not applicable: %v", *none.Overall)
	}
	if empty := ScoreAssessment(nil); empty.Overall != nil || len(empty.ByStandard) != 0 {
		t.Errorf("nothing loaded: %+v", empty)
	}
}

func TestMeanScore(t *testing.T) {
	for _, c := range []struct {
		sum  Score
		n    int
		want float64 // -1: none
	}{
		{0, 0, -1},
		{8000 + 5000, 2, 65},
		{3333 * 3, 3, 33.33},
		{5000 + 5001, 2, 50.01}, // 50.005 rounds up
		{3333 + 3333 + 3334, 3, 33.33},
		{10000 + 0 + 0, 3, 33.33},
		{10000 + 10000, 3, 66.67},
	} {
		got := MeanScore(c.sum, c.n)
		switch {
		case c.want < 0 && got != nil:
			t.Errorf("%d/%d: %v, want none", c.sum, c.n, *got)
		case c.want >= 0 && (got == nil || *got != c.want):
			t.Errorf("%d/%d: %v, want %v", c.sum, c.n, got, c.want)
		}
	}
}
