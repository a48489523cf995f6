package assess

import (
	"slices"
	"strconv"
)

// Completing an assessment (docs/assessments.md, "Complete" and "Score"): the store loads
// the answers of its requirements in one query; the rules below decide whether it may
// complete and what it scored.

// CompletionEvidence is an assessment's rule for the evidence that must be linked before
// it can complete: a setting of each assessment.
type CompletionEvidence string

// The evidence rules of completion.
const (
	// CompletionEvidenceNone needs no evidence linked.
	CompletionEvidenceNone CompletionEvidence = "none"
	// CompletionEvidenceAtLeastOne needs evidence linked to at least one requirement,
	// unless every answer is not applicable: the only rule before the setting existed, which
	// the assessments created before it keep.
	CompletionEvidenceAtLeastOne CompletionEvidence = "at_least_one"
	// CompletionEvidenceEveryPositive needs evidence linked to every requirement answered
	// yes or partial (answers of no and not applicable need none).
	CompletionEvidenceEveryPositive CompletionEvidence = "every_positive"
)

// CompletionEvidenceRules are the evidence rules, as the API and the database's CHECK
// constraint name them.
var CompletionEvidenceRules = []CompletionEvidence{CompletionEvidenceNone, CompletionEvidenceAtLeastOne, CompletionEvidenceEveryPositive}

// DefaultCompletionEvidence is the evidence rule of a new assessment that names none.
const DefaultCompletionEvidence = CompletionEvidenceEveryPositive

// checkCompletionEvidence refuses a value that is not one of CompletionEvidenceRules.
func checkCompletionEvidence(v CompletionEvidence) *Detail {
	if slices.Contains(CompletionEvidenceRules, v) {
		return nil
	}
	return &Detail{Field: "completionEvidence", Code: "invalid", Message: "One of none, at_least_one, every_positive."}
}

// RequirementAnswer is what completing an assessment reads of one of its requirements.
type RequirementAnswer struct {
	StandardID string
	// Result is the answer; "" while the requirement is unanswered.
	Result Result
	// RationaleEmpty: the rationale is empty or holds nothing but spaces.
	RationaleEmpty bool
	// RationaleWords is the rationale's RationaleWords, counted when it was written.
	RationaleWords int
	// EvidenceLinked: at least one piece of evidence is linked to the requirement.
	EvidenceLinked bool
}

// CompletionFacts are what the completion rules are decided from: the assessment's state
// and evidence rule, and the answers of every requirement with whether evidence is linked
// to each.
type CompletionFacts struct {
	State    AssessmentState
	Evidence CompletionEvidence
	Answers  []RequirementAnswer
}

// Detail codes of the completion rules, in the order they are reported.
const (
	BlockerUnanswered       = "unanswered"
	BlockerMissingRationale = "missing_rationale"
	BlockerNoEvidence       = "no_evidence"
	BlockerMissingEvidence  = "missing_evidence"
)

// CompletionBlocker is one completion rule an assessment breaks.
type CompletionBlocker struct {
	Field string `json:"field" enum:"requirements,evidence" doc:"What is missing: requirements (answers, rationales, evidence per requirement) or evidence (none linked at all)"`
	Code  string `json:"code" enum:"unanswered,missing_rationale,no_evidence,missing_evidence" doc:"unanswered: requirements without a result; missing_rationale: results whose rationale is empty or shorter than rationaleMinWords; no_evidence (rule at_least_one): no evidence is linked to any requirement; missing_evidence (rule every_positive): requirements answered yes or partial without linked evidence"`
	Count int    `json:"count" doc:"How many requirements break the rule; for no_evidence 1: any one requirement needs linked evidence"`
}

// CompletionCheck says whether an assessment may complete now and, if not, why: what
// the complete dialog shows before the assessment is completed.
type CompletionCheck struct {
	CanComplete        bool                `json:"canComplete" doc:"The assessment may move to complete now: its state allows the move and no rule blocks it"`
	CompletionEvidence CompletionEvidence  `json:"completionEvidence" enum:"none,at_least_one,every_positive" doc:"The assessment's evidence rule"`
	RationaleMinWords  int                 `json:"rationaleMinWords" doc:"The fewest words a result's rationale needs (ASSESSMENT_RATIONALE_MIN_WORDS; 0: no minimum, but not empty)"`
	Blockers           []CompletionBlocker `json:"blockers" doc:"The rules broken, in the order a refused completion lists them; empty when none is"`
}

// CheckCompletion decides whether an assessment with facts f may complete, a rationale
// needing minWords words: the rules broken, in order — unanswered requirements, results
// whose rationale is empty or shorter than minWords words (an empty one blocks even
// without a minimum), and the evidence rule: at_least_one needs evidence linked to some
// requirement while not every answer is not applicable (no_evidence), every_positive
// needs it on every requirement answered yes or partial (missing_evidence, counting
// them), none needs nothing; an unknown rule counts as every_positive. It may complete
// when its state allows the move and no rule is broken.
func CheckCompletion(f CompletionFacts, minWords int) CompletionCheck {
	var unanswered, missingRationale, applicable, linked, positiveBare int
	for _, a := range f.Answers {
		if a.Result == "" {
			unanswered++
		} else if a.RationaleEmpty || a.RationaleWords < minWords {
			missingRationale++
		}
		if a.Result != ResultNotApplicable {
			applicable++
		}
		if a.EvidenceLinked {
			linked++
		} else if a.Result == ResultYes || a.Result == ResultPartial {
			positiveBare++
		}
	}
	rule := f.Evidence
	if checkCompletionEvidence(rule) != nil {
		rule = CompletionEvidenceEveryPositive
	}
	c := CompletionCheck{CompletionEvidence: rule, RationaleMinWords: max(minWords, 0), Blockers: []CompletionBlocker{}}
	add := func(field, code string, n int) {
		if n > 0 {
			c.Blockers = append(c.Blockers, CompletionBlocker{Field: field, Code: code, Count: n})
		}
	}
	add("requirements", BlockerUnanswered, unanswered)
	add("requirements", BlockerMissingRationale, missingRationale)
	switch rule {
	case CompletionEvidenceAtLeastOne:
		if linked == 0 && applicable > 0 {
			add("evidence", BlockerNoEvidence, 1)
		}
	case CompletionEvidenceEveryPositive:
		add("requirements", BlockerMissingEvidence, positiveBare)
	}
	c.CanComplete = len(c.Blockers) == 0 && slices.Contains(AssessmentLifecycle.Allowed(f.State), AssessmentComplete)
	return c
}

// CompletionBlockers refuses to complete an assessment while CheckCompletion finds rules
// broken (its state is the lifecycle's check): 422 business_rule_violation with one
// detail per rule broken, in CheckCompletion's order, the counts as messages (no_evidence
// says what to do instead). nil when it may complete.
func CompletionBlockers(f CompletionFacts, minWords int) error {
	c := CheckCompletion(f, minWords)
	if len(c.Blockers) == 0 {
		return nil
	}
	details := make([]Detail, len(c.Blockers))
	for i, b := range c.Blockers {
		details[i] = Detail{Field: b.Field, Code: b.Code, Message: strconv.Itoa(b.Count)}
		if b.Code == BlockerNoEvidence {
			details[i].Message = "Link evidence to at least one requirement."
		}
	}
	return &Error{Code: ECodeBusinessRule, Details: details, Message: completionRefusal[c.CompletionEvidence]}
}

// completionRefusal is the message of a refused completion under each evidence rule.
var completionRefusal = map[CompletionEvidence]string{
	CompletionEvidenceNone: "The assessment cannot be completed yet: every requirement needs a result and a rationale.",
	CompletionEvidenceAtLeastOne: "The assessment cannot be completed yet: every requirement needs a result and a rationale, " +
		"and evidence must be linked.",
	CompletionEvidenceEveryPositive: "The assessment cannot be completed yet: every requirement needs a result and a rationale, " +
		"and every requirement answered yes or partial needs linked evidence.",
}

// Score is a conformance score in hundredths of a percentage point: 6250 is 62.50. The
// store keeps it as numeric(5, 2), exactly.
type Score int64

// Float is the score as the API shows it: 62.5.
func (s Score) Float() float64 { return float64(s) / 100 }

// ResultCounts tally the answers that score.
type ResultCounts struct {
	Yes, Partial, No int
}

// Add counts result r (not applicable and unanswered count for nothing).
func (c *ResultCounts) Add(r Result) {
	switch r {
	case ResultYes:
		c.Yes++
	case ResultPartial:
		c.Partial++
	case ResultNo:
		c.No++
	}
}

// Score is 100 × (yes + ½ · partial) / (yes + partial + no), rounded to two decimals,
// halves away from zero (as PostgreSQL's round of a numeric); nil when nothing scores
// (every answer not applicable, or none).
func (c ResultCounts) Score() *Score {
	of := int64(c.Yes + c.Partial + c.No)
	if of == 0 {
		return nil
	}
	// In hundredths: 10000 × (2·yes + partial) / (2·of), rounded half up in integers.
	num, den := 10000*int64(2*c.Yes+c.Partial), 2*of
	s := Score((2*num + den) / (2 * den))
	return &s
}

// AssessmentScores are the conformance scores of a completed assessment.
type AssessmentScores struct {
	// Overall is over every requirement; nil when nothing scores.
	Overall *Score
	// ByStandard is over the requirements of each standard (so of its level, when one is
	// set), for every standard with a requirement loaded; nil when nothing scores.
	ByStandard map[string]*Score
}

// ScoreAssessment returns the conformance scores of an assessment from the answers of its
// requirements (docs/assessments.md, "Score").
func ScoreAssessment(answers []RequirementAnswer) AssessmentScores {
	var all ResultCounts
	per := map[string]*ResultCounts{}
	for _, a := range answers {
		c := per[a.StandardID]
		if c == nil {
			c = &ResultCounts{}
			per[a.StandardID] = c
		}
		c.Add(a.Result)
		all.Add(a.Result)
	}
	out := AssessmentScores{Overall: all.Score(), ByStandard: make(map[string]*Score, len(per))}
	for id, c := range per {
		out.ByStandard[id] = c.Score()
	}
	return out
}

// MeanScore is the mean of scores (as a sum of hundredths over n) rounded to two
// decimals, halves away from zero, as the API shows it; nil when n is 0.
func MeanScore(sum Score, n int) *float64 {
	if n <= 0 {
		return nil
	}
	num, den := int64(sum), int64(n)
	m := Score((2*num + den) / (2 * den)).Float()
	return &m
}
