package assess

import "strconv"

// Completing an assessment (docs/assessments.md, "Complete" and "Score"): the store loads
// the answers of its requirements in one query; the rules below decide whether it may
// complete and what it scored.

// RequirementAnswer is what completing an assessment reads of one of its requirements.
type RequirementAnswer struct {
	StandardID string
	// Result is the answer; "" while the requirement is unanswered.
	Result Result
	// RationaleEmpty: the rationale is empty or holds nothing but spaces.
	RationaleEmpty bool
	// RationaleWords is the rationale's RationaleWords, counted when it was written.
	RationaleWords int
}

// CompletionFacts are what the completion rules are decided from: the answers of every
// requirement of the assessment and whether evidence is linked to any of them.
type CompletionFacts struct {
	Answers        []RequirementAnswer
	EvidenceLinked bool
}

// CompletionBlockers refuses to complete an assessment with unanswered requirements,
// results whose rationale is empty or shorter than minWords words (an empty one blocks
// even without a minimum), or no evidence linked while not every answer is not
// applicable: 422 business_rule_violation with one detail per rule broken, in that order,
// counts as messages. nil when it may complete.
func CompletionBlockers(f CompletionFacts, minWords int) error {
	var unanswered, missing, applicable int
	for _, a := range f.Answers {
		if a.Result == "" {
			unanswered++
		} else if a.RationaleEmpty || a.RationaleWords < minWords {
			missing++
		}
		if a.Result != ResultNotApplicable {
			applicable++
		}
	}
	var details []Detail
	if unanswered > 0 {
		details = append(details, Detail{Field: "requirements", Code: "unanswered", Message: strconv.Itoa(unanswered)})
	}
	if missing > 0 {
		details = append(details, Detail{Field: "requirements", Code: "missing_rationale", Message: strconv.Itoa(missing)})
	}
	if !f.EvidenceLinked && applicable > 0 {
		details = append(details, Detail{Field: "evidence", Code: "no_evidence", Message: "Link evidence to at least one requirement."})
	}
	if len(details) == 0 {
		return nil
	}
	return &Error{Code: ECodeBusinessRule, Details: details,
		Message: "The assessment cannot be completed yet: every requirement needs a result and a rationale, and evidence must be linked."}
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
