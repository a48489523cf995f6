package work

import (
	"context"
	"errors"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// lockedEvidence is what a change reads about evidence after locking its row.
type lockedEvidence struct {
	state                 assess.EvidenceState
	authorID, reviewerID  string
	validFrom, validUntil string
}

// lockEvidence is the prelude of every change to evidence id: 404 unless actor may see
// it, the row locked (checking version when it is not 0), then the retention lock (409
// conflict with the reason; administrators included).
func lockEvidence(ctx context.Context, tx *postgres.Tx, id string, version int64) (lockedEvidence, error) {
	var le lockedEvidence
	if err := postgres.EvidenceVisible(ctx, tx, tx.Actor, id); err != nil {
		return le, err
	}
	if version != 0 {
		if err := tx.LockVersion(ctx, "evidence", id, version, postgres.ErrEvidenceNotFound); err != nil {
			return le, err
		}
	}
	err := tx.QueryRow(ctx, `SELECT state, author_id, coalesce(reviewer_id, ''), coalesce(to_char(valid_from, 'YYYY-MM-DD'), ''),
		coalesce(to_char(valid_until, 'YYYY-MM-DD'), '') FROM evidence WHERE id = $1 FOR UPDATE`, id).
		Scan(&le.state, &le.authorID, &le.reviewerID, &le.validFrom, &le.validUntil)
	if err != nil {
		return le, err
	}
	return le, evidenceLockError(ctx, tx, id)
}

// errEvidenceNeedsUser refuses evidence created by an actor that is not a user (the
// author must be one).
var errEvidenceNeedsUser = &assess.Error{Code: assess.ECodeBusinessRule, Message: "Evidence is authored by a user.",
	Details: []assess.Detail{{Code: "author_required", Message: "Create evidence as a signed-in user or with an API key."}}}

// namedField adds field to the details of a domain error that names none, so that an
// error about one id of a request's list names the list.
func namedField(err error, field string) error {
	var e *assess.Error
	if !errors.As(err, &e) {
		return err
	}
	c := *e
	c.Details = append([]assess.Detail{{Field: field, Code: c.Code, Message: c.Message}}, e.Details...)
	return &c
}

// UpdateEvidence implements assess.EvidenceService with optimistic concurrency. Locked
// evidence refuses (409 with the reason), evidence in review too (409 in_review). Expired
// evidence given a validUntil that has not passed (or none) is renewed: back to
// in_progress, announced as evidence.renewed after the update. A new validUntil re-arms
// the expiry reminder.
func (s *EvidenceService) UpdateEvidence(ctx context.Context, id string, upd assess.EvidenceUpdate, actor assess.Actor) (assess.Evidence, error) {
	var e assess.Evidence
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := upd.Validate(); err != nil {
			return err
		}
		le, err := lockEvidence(ctx, tx, id, upd.Version)
		if err != nil {
			return err
		}
		if le.state == assess.EvidenceInReview {
			return assess.ErrEvidenceInReview
		}
		if err := applyEvidenceUpdate(ctx, tx, id, le, upd); err != nil {
			return err
		}
		if err := tx.BumpVersion(ctx, "evidence", id); err != nil {
			return err
		}
		if e, err = recordEvidence(ctx, tx, assess.ChangeEvidenceUpdated, id, map[string]any{"changes": evidenceAuditChanges(upd)}, nil); err != nil {
			return err
		}
		if le.state != assess.EvidenceExpired || upd.ValidUntil == nil || !assess.EvidenceRenews(*upd.ValidUntil, evidenceToday(tx)) {
			return nil
		}
		if err := assess.EvidenceLifecycle.Check(le.state, assess.EvidenceInProgress); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "UPDATE evidence SET state = 'in_progress' WHERE id = $1", id); err != nil {
			return err
		}
		e, err = recordEvidence(ctx, tx, assess.ChangeEvidenceRenewed, id, map[string]any{"from": le.state, "to": assess.EvidenceInProgress},
			func(d *assess.EvidenceEvent) (string, string) { d.PreviousState = le.state; return d.Author.ID, "" })
		return err
	})
	return e, err
}

// applyEvidenceUpdate writes the fields of upd; the validity is checked as it ends up.
func applyEvidenceUpdate(ctx context.Context, tx *postgres.Tx, id string, le lockedEvidence, upd assess.EvidenceUpdate) error {
	from, until, collected := le.validFrom, le.validUntil, ""
	if upd.ValidFrom != nil {
		from = *upd.ValidFrom
	}
	if upd.ValidUntil != nil {
		until = *upd.ValidUntil
	}
	if details := assess.CheckEvidenceDates(&collected, &from, &until); len(details) > 0 {
		return &assess.Error{Code: assess.ECodeValidation, Message: "The evidence is invalid.", Details: details}
	}
	if _, err := tx.Exec(ctx, `UPDATE evidence SET name = coalesce($2, name), description = coalesce($3, description),
		classification = coalesce($4, classification), is_counter_evidence = coalesce($5, is_counter_evidence),
		collected_on = CASE WHEN $6::text IS NULL THEN collected_on ELSE nullif($6::text, '')::date END,
		valid_from = nullif($7::text, '')::date, valid_until = nullif($8::text, '')::date,
		expiring_notified_at = CASE WHEN valid_until IS DISTINCT FROM nullif($8::text, '')::date THEN NULL ELSE expiring_notified_at END
		WHERE id = $1`,
		id, upd.Name, upd.Description, upd.Classification, upd.IsCounterEvidence, upd.CollectedOn, from, until); err != nil {
		return err
	}
	return postgres.ReplaceTags(ctx, tx, postgres.EvidenceTags, id, derefSet(upd.TagIDs))
}

// evidenceAuditChanges lists the fields an update sets.
func evidenceAuditChanges(upd assess.EvidenceUpdate) map[string]any {
	m := map[string]any{}
	postgres.PutSet(m, "name", upd.Name)
	postgres.PutSet(m, "description", upd.Description)
	postgres.PutSet(m, "classification", upd.Classification)
	postgres.PutSet(m, "collectedOn", upd.CollectedOn)
	postgres.PutSet(m, "validFrom", upd.ValidFrom)
	postgres.PutSet(m, "validUntil", upd.ValidUntil)
	postgres.PutSet(m, "isCounterEvidence", upd.IsCounterEvidence)
	postgres.PutSet(m, "tagIds", upd.TagIDs)
	return m
}

// DeleteEvidence implements assess.EvidenceService: evidence that is not locked is
// deleted with its notes, links, tags and attachment rows. The event is recorded first,
// while the users who may see the evidence can still be found.
func (s *EvidenceService) DeleteEvidence(ctx context.Context, id string, version int64, actor assess.Actor) error {
	return s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if _, err := lockEvidence(ctx, tx, id, version); err != nil {
			return err
		}
		e, err := findEvidence(ctx, tx, tx.Actor, id)
		if err != nil {
			return err
		}
		if err := tx.Record(ctx, assess.ChangeEvidenceDeleted, evidenceTarget(id, ""), map[string]any{"name": e.Name},
			evidenceEvent(assess.EvidenceEvent{Evidence: e}, e.Author.ID)); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, "DELETE FROM evidence WHERE id = $1", id)
		return err
	})
}
