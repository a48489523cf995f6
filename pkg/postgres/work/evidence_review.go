package work

import (
	"context"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// SubmitEvidence implements assess.EvidenceService: evidence in progress goes to a
// reviewer who is not its author (422 four_eyes) and who is an active user holding
// evidence.review (422 reviewer_cannot_review). The reviewer is notified.
func (s *EvidenceService) SubmitEvidence(ctx context.Context, id string, sub assess.EvidenceSubmit, actor assess.Actor) (assess.Evidence, error) {
	var e assess.Evidence
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := sub.Validate(); err != nil {
			return err
		}
		le, err := lockEvidence(ctx, tx, id, sub.Version)
		if err != nil {
			return err
		}
		if err := assess.EvidenceLifecycle.Check(le.state, assess.EvidenceInReview); err != nil {
			return err
		}
		if sub.ReviewerID == le.authorID {
			return assess.EvidenceRuleError("reviewerId", assess.CodeFourEyes, "The author of evidence cannot review it; choose another reviewer.")
		}
		if err := checkReviewer(ctx, tx, sub.ReviewerID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE evidence SET state = 'in_review', reviewer_id = $2, submitted_at = $3, reviewed_at = NULL
			WHERE id = $1`, id, sub.ReviewerID, tx.Now); err != nil {
			return err
		}
		if err := tx.BumpVersion(ctx, "evidence", id); err != nil {
			return err
		}
		e, err = recordEvidence(ctx, tx, assess.ChangeEvidenceSubmitted, id,
			map[string]any{"from": le.state, "to": assess.EvidenceInReview, "reviewerId": sub.ReviewerID},
			func(d *assess.EvidenceEvent) (string, string) { d.PreviousState = le.state; return sub.ReviewerID, "" })
		return err
	})
	return e, err
}

// checkReviewer refuses a reviewer who is not an active user holding evidence.review.
func checkReviewer(ctx context.Context, tx *postgres.Tx, userID string) error {
	ok := false
	if assess.ValidID(assess.PrefixUser, userID) {
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM users WHERE id = $1 AND active AND user_has_permission(id, $2))`,
			userID, assess.PermEvidenceReview).Scan(&ok); err != nil {
			return err
		}
	}
	if !ok {
		return assess.EvidenceRuleError("reviewerId", assess.CodeReviewerCannotReview,
			"The reviewer must be an active user who may review evidence (evidence.review).")
	}
	return nil
}

// reviewDecision is an approval or a rejection of evidence in review.
type reviewDecision struct {
	version int64
	to      assess.EvidenceState
	change  assess.Change
	note    string // the rejection note
}

// ApproveEvidence implements assess.EvidenceService: the assigned reviewer, never the
// author, approves evidence in review; it becomes claimed (and locked). The author is
// notified.
func (s *EvidenceService) ApproveEvidence(ctx context.Context, id string, r assess.EvidenceReview, actor assess.Actor) (assess.Evidence, error) {
	return s.decide(ctx, id, reviewDecision{version: r.Version, to: assess.EvidenceClaimed, change: assess.ChangeEvidenceApproved}, actor)
}

// RejectEvidence implements assess.EvidenceService: the assigned reviewer, never the
// author, returns evidence in review to in_progress with a note of kind rejection. The
// author is notified.
func (s *EvidenceService) RejectEvidence(ctx context.Context, id string, r assess.EvidenceReject, actor assess.Actor) (assess.Evidence, error) {
	if err := r.Validate(); err != nil {
		return assess.Evidence{}, err
	}
	return s.decide(ctx, id, reviewDecision{version: r.Version, to: assess.EvidenceInProgress, change: assess.ChangeEvidenceRejected, note: r.Note}, actor)
}

// decide runs a review decision: visible (404), version, retention lock (409), state
// (409 invalid_state_transition), then the four-eyes rules (422 four_eyes for the
// author, 422 not_reviewer for anyone but the assigned reviewer).
func (s *EvidenceService) decide(ctx context.Context, id string, d reviewDecision, actor assess.Actor) (assess.Evidence, error) {
	var e assess.Evidence
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		le, err := lockEvidence(ctx, tx, id, d.version)
		if err != nil {
			return err
		}
		if le.state != assess.EvidenceInReview {
			return assess.ErrEvidenceNotInReview(le.state)
		}
		if err := assess.EvidenceLifecycle.Check(le.state, d.to); err != nil {
			return err
		}
		if actor.ID == le.authorID {
			return assess.EvidenceRuleError("evidence", assess.CodeFourEyes, "The author of evidence cannot review it.")
		}
		if actor.ID != le.reviewerID {
			return assess.EvidenceRuleError("evidence", assess.CodeNotReviewer, "Only the reviewer the evidence was submitted to may approve or reject it.")
		}
		if _, err := tx.Exec(ctx, "UPDATE evidence SET state = $2, reviewed_at = $3 WHERE id = $1", id, d.to, tx.Now); err != nil {
			return err
		}
		details := map[string]any{"from": le.state, "to": d.to}
		if d.note != "" {
			noteID, err := insertEvidenceNote(ctx, tx, id, assess.EvidenceNoteKindRejection, d.note)
			if err != nil {
				return err
			}
			details["noteId"] = noteID
		}
		if err := tx.BumpVersion(ctx, "evidence", id); err != nil {
			return err
		}
		e, err = recordEvidence(ctx, tx, d.change, id, details, func(ev *assess.EvidenceEvent) (string, string) {
			ev.PreviousState, ev.Note = le.state, d.note
			return le.authorID, ""
		})
		return err
	})
	return e, err
}
