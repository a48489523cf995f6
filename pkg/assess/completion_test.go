package assess

import (
	"errors"
	"reflect"
	"slices"
	"testing"
)

// answers makes one answer per result given, of standard st, with a rationale of words
// words (empty when 0), without evidence linked.
func answers(st string, words int, results ...Result) []RequirementAnswer {
	out := make([]RequirementAnswer, len(results))
	for i, r := range results {
		out[i] = RequirementAnswer{StandardID: st, Result: r, RationaleEmpty: words == 0, RationaleWords: words}
	}
	return out
}

// linked returns the answers with evidence linked to each.
func linked(list []RequirementAnswer) []RequirementAnswer {
	out := slices.Clone(list)
	for i := range out {
		out[i].EvidenceLinked = true
	}
	return out
}

// joined concatenates lists of answers.
func joined(lists ...[]RequirementAnswer) []RequirementAnswer { return slices.Concat(lists...) }

// blockerDetails returns field:code=message of each detail of a refused completion, nil
// when err is nil; it checks the error's code and its message under rule.
func blockerDetails(t *testing.T, err error, rule CompletionEvidence) []string {
	t.Helper()
	if err == nil {
		return nil
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("want *Error, got %v", err)
	}
	if e.Code != ECodeBusinessRule || e.Message != completionRefusal[rule] || e.Message == "" {
		t.Errorf("error %s %q", e.Code, e.Message)
	}
	var got []string
	for _, d := range e.Details {
		got = append(got, d.Field+":"+d.Code+"="+d.Message)
	}
	return got
}

const noEvidence = "evidence:no_evidence=Link evidence to at least one requirement."

// TestCompletionBlockers: the rules of the answers and their rationales, under the rule
// assessments had before the evidence rule became a setting (at_least_one).
func TestCompletionBlockers(t *testing.T) {
	blank := RequirementAnswer{StandardID: "st_a", Result: ResultYes, RationaleEmpty: true, EvidenceLinked: true}
	dashes := RequirementAnswer{StandardID: "st_a", Result: ResultYes, EvidenceLinked: true} // "- …": not empty, no word
	for _, c := range []struct {
		name     string
		answers  []RequirementAnswer
		minWords int
		want     []string // field:code=message of each detail, in order; nil: may complete
	}{
		{"nothing loaded: nothing to answer or cover", nil, 15, nil},
		{"all answered with rationales and evidence", joined(linked(answers("st_a", 15, ResultYes)), answers("st_a", 15, ResultNo, ResultPartial)), 15, nil},
		{"unanswered and no evidence", answers("st_a", 0, "", ""), 15, []string{"requirements:unanswered=2", noEvidence}},
		{"every rule broken, in order", joined(answers("st_a", 0, ""), answers("st_b", 2, ResultYes, ResultNo)), 15,
			[]string{"requirements:unanswered=1", "requirements:missing_rationale=2", noEvidence}},
		{"unanswered only, evidence linked", linked(answers("st_a", 0, "", "", "")), 15, []string{"requirements:unanswered=3"}},
		{"a rationale of exactly the minimum is enough", linked(answers("st_a", 3, ResultYes)), 3, nil},
		{"one word short", linked(answers("st_a", 2, ResultYes)), 3, []string{"requirements:missing_rationale=1"}},
		{"not applicable needs its rationale too", answers("st_a", 1, ResultNotApplicable), 3, []string{"requirements:missing_rationale=1"}},
		{"every answer not applicable: no evidence needed", answers("st_a", 15, ResultNotApplicable, ResultNotApplicable), 15, nil},
		{"not applicable and unanswered: the unanswered one may need evidence", joined(answers("st_a", 15, ResultNotApplicable),
			answers("st_a", 0, "")), 15, []string{"requirements:unanswered=1", noEvidence}},
		{"no minimum: an empty rationale still blocks", []RequirementAnswer{blank}, 0, []string{"requirements:missing_rationale=1"}},
		{"no minimum: a rationale without words is one", []RequirementAnswer{dashes}, 0, nil},
		{"a minimum: a rationale without words is too short", []RequirementAnswer{dashes}, 1, []string{"requirements:missing_rationale=1"}},
		{"unanswered drafts do not count as missing rationales", linked(answers("st_a", 1, "")), 15, []string{"requirements:unanswered=1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := CompletionFacts{State: AssessmentInProgress, Evidence: CompletionEvidenceAtLeastOne, Answers: c.answers}
			got := blockerDetails(t, CompletionBlockers(f, c.minWords), CompletionEvidenceAtLeastOne)
			if !slices.Equal(got, c.want) {
				t.Errorf("details %q, want %q", got, c.want)
			}
		})
	}
}

// TestCompletionEvidenceRules: what each evidence rule asks of the same answers and links.
// Evidence is counted per requirement: a link on an answer of no or not applicable
// satisfies at_least_one but none of the yes and partial answers every_positive checks.
func TestCompletionEvidenceRules(t *testing.T) {
	const yes, partial, no, na = ResultYes, ResultPartial, ResultNo, ResultNotApplicable
	for _, c := range []struct {
		name                            string
		answers                         []RequirementAnswer
		none, atLeastOne, everyPositive []string // the details under each rule; nil: may complete
	}{
		{"no requirements loaded", nil, nil, nil, nil},
		{"every answer not applicable, nothing linked", answers("st_a", 15, na, na), nil, nil, nil},
		{"yes and partial, nothing linked", answers("st_a", 15, yes, partial),
			nil, []string{noEvidence}, []string{"requirements:missing_evidence=2"}},
		{"evidence on one of three yes answers", joined(linked(answers("st_a", 15, yes)), answers("st_a", 15, yes, yes)),
			nil, nil, []string{"requirements:missing_evidence=2"}},
		{"evidence only on the answers of no", joined(answers("st_a", 15, yes, partial), linked(answers("st_a", 15, no, no))),
			nil, nil, []string{"requirements:missing_evidence=2"}},
		{"evidence only on a not applicable answer", joined(answers("st_a", 15, partial), linked(answers("st_b", 15, na))),
			nil, nil, []string{"requirements:missing_evidence=1"}},
		{"answers of no without evidence do not count", joined(linked(answers("st_a", 15, yes, partial)), answers("st_a", 15, no, no, no)),
			nil, nil, nil},
		{"only answers of no, nothing linked", answers("st_a", 15, no, no),
			nil, []string{noEvidence}, nil},
		{"not applicable answers without evidence do not count", joined(linked(answers("st_a", 15, yes)), answers("st_b", 15, na, na)),
			nil, nil, nil},
		{"unanswered requirements block, but need no evidence yet", answers("st_a", 0, "", ""),
			[]string{"requirements:unanswered=2"}, []string{"requirements:unanswered=2", noEvidence}, []string{"requirements:unanswered=2"}},
		{"evidence on an unanswered requirement", joined(linked(answers("st_a", 0, "")), answers("st_a", 15, yes)),
			[]string{"requirements:unanswered=1"}, []string{"requirements:unanswered=1"},
			[]string{"requirements:unanswered=1", "requirements:missing_evidence=1"}},
		{"every rule broken, in order", joined(answers("st_a", 0, ""), answers("st_a", 2, yes), answers("st_b", 15, partial, no)),
			[]string{"requirements:unanswered=1", "requirements:missing_rationale=1"},
			[]string{"requirements:unanswered=1", "requirements:missing_rationale=1", noEvidence},
			[]string{"requirements:unanswered=1", "requirements:missing_rationale=1", "requirements:missing_evidence=2"}},
		{"a short rationale and no evidence on the same yes count under both", answers("st_a", 2, yes),
			[]string{"requirements:missing_rationale=1"}, []string{"requirements:missing_rationale=1", noEvidence},
			[]string{"requirements:missing_rationale=1", "requirements:missing_evidence=1"}},
	} {
		for _, r := range []struct {
			rule CompletionEvidence
			want []string
		}{{CompletionEvidenceNone, c.none}, {CompletionEvidenceAtLeastOne, c.atLeastOne}, {CompletionEvidenceEveryPositive, c.everyPositive}} {
			t.Run(c.name+"/"+string(r.rule), func(t *testing.T) {
				f := CompletionFacts{State: AssessmentInProgress, Evidence: r.rule, Answers: c.answers}
				got := blockerDetails(t, CompletionBlockers(f, 15), r.rule)
				if !slices.Equal(got, r.want) {
					t.Errorf("details %q, want %q", got, r.want)
				}
				check := CheckCompletion(f, 15)
				if check.CanComplete != (r.want == nil) || len(check.Blockers) != len(r.want) || check.CompletionEvidence != r.rule {
					t.Errorf("check %+v disagrees with the refusal %q", check, got)
				}
			})
		}
	}
}

// TestCheckCompletion: the preview the complete dialog reads is the refusal's decision
// with counts, plus whether the state allows the move at all.
func TestCheckCompletion(t *testing.T) {
	f := CompletionFacts{State: AssessmentInProgress, Evidence: CompletionEvidenceAtLeastOne,
		Answers: joined(answers("st_a", 0, "", ""), answers("st_a", 3, ResultYes))}
	got := CheckCompletion(f, 15)
	want := CompletionCheck{CompletionEvidence: CompletionEvidenceAtLeastOne, RationaleMinWords: 15, Blockers: []CompletionBlocker{
		{Field: "requirements", Code: BlockerUnanswered, Count: 2}, {Field: "requirements", Code: BlockerMissingRationale, Count: 1},
		{Field: "evidence", Code: BlockerNoEvidence, Count: 1}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}

	ready := linked(answers("st_a", 15, ResultYes, ResultPartial))
	for _, s := range AssessmentLifecycle.States() {
		got := CheckCompletion(CompletionFacts{State: s, Evidence: CompletionEvidenceEveryPositive, Answers: ready}, 15)
		if wantCan := s == AssessmentInProgress; got.CanComplete != wantCan || len(got.Blockers) != 0 {
			t.Errorf("%s: %+v, want canComplete %v and no blocker", s, got, wantCan)
		}
		if got.Blockers == nil {
			t.Errorf("%s: blockers nil, want an empty list", s)
		}
	}

	unknown := CheckCompletion(CompletionFacts{State: AssessmentInProgress, Evidence: "", Answers: answers("st_a", 15, ResultYes)}, -1)
	if unknown.CompletionEvidence != CompletionEvidenceEveryPositive || unknown.RationaleMinWords != 0 ||
		!reflect.DeepEqual(unknown.Blockers, []CompletionBlocker{{Field: "requirements", Code: BlockerMissingEvidence, Count: 1}}) {
		t.Errorf("an unknown rule counts as every_positive: %+v", unknown)
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
