package postgres

import "github.com/assay-dev/assay/pkg/assess"

// AssessmentVisibleEachSQL is the rule of AssessmentVisibleSQL in its correlated form: "the
// assessment whose id is idExpr is visible to actor", each candidate tested by the index
// lookups of its two ties (team membership, evidence it links authored or reviewed by the
// actor), or "" when the actor sees every assessment. For reads whose candidates are few — an
// entity's finished assessments, the score history — where the set form would build the
// participant's whole set first (45 ms for a participant authoring 3,000 of 100,000 pieces of
// evidence, against well under a millisecond for an entity's dozen candidates). The score
// history's tests hold it to assessment_visible, the fan-out's form of the rule.
func AssessmentVisibleEachSQL(actor assess.Actor, idExpr string, arg func(any) string) string {
	if assess.SeesEveryAssessment(actor) {
		return ""
	}
	return participantCorrelated(idExpr, arg(ActorID(actor)))
}
