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

// AssessmentVisibleLookupSQL is AssessmentVisibleEachSQL kept one index lookup per
// candidate in every plan, or "" when the actor sees every assessment: for a test inside a
// subquery run for each row of a page (the number of an evidence row's linked assessments
// the actor may see). OFFSET 0 keeps PostgreSQL from turning the EXISTS into a semi-join,
// which a generic plan made a merge with the participant's whole set, read once per row (a
// participant of a thousand assessments: 1,202 index entries per row, 7.7 ms of a 10 ms
// evidence page, against two lookups per row).
func AssessmentVisibleLookupSQL(actor assess.Actor, idExpr string, arg func(any) string) string {
	if assess.SeesEveryAssessment(actor) {
		return ""
	}
	return substitute(participantLookupSQL, idExpr, arg(ActorID(actor)))
}

// participantLookupSQL is participantCorrelatedSQL fenced by OFFSET 0
// (AssessmentVisibleLookupSQL).
const participantLookupSQL = `EXISTS (SELECT 1 FROM assessment_participants pp WHERE pp.user_id = {U} AND pp.assessment_id = {A} OFFSET 0)`
