package postgres

import (
	"errors"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

// participantEachSQL is "user {U} takes part in assessment {A}" for the one assessment of
// the row at hand: one probe of assessment_participants' primary key (migrations/0033),
// which is a generic plan's choice as well as a custom one's (ChangeGeneric).
const participantEachSQL = participantCorrelatedSQL

// AssessmentParticipantSQL selects whether actor takes part in the assessment whose id is
// idExpr (participantEachSQL; "false", not looked up, for an actor who sees every
// assessment), for a change's check of several assessments, or of one with what else it
// reads; CanSeeAssessmentAs decides. arg adds the actor's id as a parameter.
func AssessmentParticipantSQL(actor assess.Actor, idExpr string, arg func(any) string) string {
	if assess.SeesEveryAssessment(actor) {
		return "false"
	}
	return substitute(participantEachSQL, idExpr, arg(ActorID(actor)))
}

// CanSeeAssessmentAs is assess.CanSeeAssessment from what AssessmentParticipantSQL read:
// either tie makes a participant.
func CanSeeAssessmentAs(actor assess.Actor, participant bool) bool {
	return assess.CanSeeAssessment(actor, assess.AssessmentTies{Member: participant})
}

// QueueWritableAssessment queues on b the check WritableAssessment makes — 404 when actor
// may not see assessment id, 409 read_only when it takes no changes, the row locked FOR
// SHARE for the rest of the transaction — reading in the same statement what a create
// under the assessment needs of it: columns, constant SQL on the assessment's row a and
// on the placeholders $1… of args, are scanned into dest once the check has passed. The
// batch's Close answers the check's error, in the order of the batch. A create sends it
// with its other reads (docs/performance.md, "Creates and the write ceiling"). An id that
// cannot be an assessment's is answered at once, before anything is queued.
func QueueWritableAssessment(b *pgx.Batch, actor assess.Actor, id, columns string, args []any, dest ...any) error {
	if !assess.ValidID(assess.PrefixAssessment, id) {
		return ErrAssessmentNotFound
	}
	a := SQLArgs(slices.Clone(args))
	sql := "SELECT a.state, " + AssessmentParticipantSQL(actor, "a.id", a.Add) + ", " + columns +
		" FROM assessments a WHERE a.id = " + a.Add(id) + " FOR SHARE OF a"
	b.Queue(sql, a...).QueryRow(func(row pgx.Row) error {
		var state assess.AssessmentState
		var participant bool
		err := row.Scan(append([]any{&state, &participant}, dest...)...)
		switch {
		case errors.Is(err, pgx.ErrNoRows) || (err == nil && !CanSeeAssessmentAs(actor, participant)):
			return ErrAssessmentNotFound
		case err != nil:
			return err
		case assess.AssessmentReadOnly(state):
			return assess.ErrAssessmentReadOnly(state)
		}
		return nil
	})
	return nil
}
