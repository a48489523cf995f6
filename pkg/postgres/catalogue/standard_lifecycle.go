package catalogue

import (
	"context"
	"strings"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// The four-eyes lifecycle of standards (assess.StandardLifecycle): submit, approve,
// reject, retire.

// transition moves standard id to state to as the lifecycle allows, after check (the
// rule of this move, given the standard as locked) and set (the columns the move writes
// besides the state: "col = $n, …" where $3 is the time of the change, $4 the actor and
// args follow from $5); it records c.
func (s *StandardService) transition(ctx context.Context, id string, to assess.StandardState, c assess.Change, actor assess.Actor,
	check func(tx *postgres.Tx, st assess.Standard) (map[string]any, error), set string, args ...any) (assess.Standard, error) {
	var after assess.Standard
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		st, err := lockStandard(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := assess.StandardLifecycle.Check(st.State, to); err != nil {
			return err
		}
		details := map[string]any{"from": st.State, "to": to}
		if check != nil {
			extra, err := check(tx, st)
			if err != nil {
				return err
			}
			for k, v := range extra {
				details[k] = v
			}
		}
		sql := "UPDATE standards SET " + set + ", state = $2, version = version + 1, updated_at = $3 WHERE id = $1"
		params := []any{id, to, tx.Now}
		if strings.Contains(set, "$4") { // every parameter must be used, so the database knows its type
			params = append(params, tx.Actor.ID)
		}
		if _, err := tx.Exec(ctx, sql, append(params, args...)...); err != nil {
			return err
		}
		if after, err = findStandard(ctx, tx, id); err != nil {
			return err
		}
		ev := standardEvent(after)
		if (to == assess.StandardPublished || to == assess.StandardDraft) && assess.ValidID(assess.PrefixUser, st.SubmittedBy) {
			ev.SubjectUserID = st.SubmittedBy // the submitter learns the decision
		}
		return tx.Record(ctx, c, standardTarget(id), details, ev)
	})
	return after, err
}

// fourEyes refuses the submitter's own decision on their submission.
func fourEyes(tx *postgres.Tx, st assess.Standard) (map[string]any, error) {
	if st.SubmittedBy != "" && st.SubmittedBy == tx.Actor.ID {
		return nil, assess.ErrFourEyes
	}
	return map[string]any{"submittedBy": st.SubmittedBy}, nil
}

// SubmitStandard implements assess.StandardService: draft → in_review.
func (s *StandardService) SubmitStandard(ctx context.Context, id string, actor assess.Actor) (assess.Standard, error) {
	return s.transition(ctx, id, assess.StandardInReview, assess.ChangeStandardSubmitted, actor, nil,
		"submitted_by = $4, submitted_at = $3")
}

// ApproveStandard implements assess.StandardService: in_review → published, by someone
// other than the submitter (422 four_eyes). A former rejection is cleared.
func (s *StandardService) ApproveStandard(ctx context.Context, id string, actor assess.Actor) (assess.Standard, error) {
	return s.transition(ctx, id, assess.StandardPublished, assess.ChangeStandardApproved, actor, fourEyes,
		"approved_by = $4, approved_at = $3, rejected_by = NULL, rejected_at = NULL, rejection_reason = NULL")
}

// RejectStandard implements assess.StandardService: in_review → draft with a reason, by
// someone other than the submitter (422 four_eyes). The reason stays on the standard
// until it is approved.
func (s *StandardService) RejectStandard(ctx context.Context, id string, r assess.RejectRequest, actor assess.Actor) (assess.Standard, error) {
	if err := r.Validate(); err != nil {
		return assess.Standard{}, err
	}
	check := func(tx *postgres.Tx, st assess.Standard) (map[string]any, error) {
		details, err := fourEyes(tx, st)
		if err == nil {
			details["reason"] = r.Reason
		}
		return details, err
	}
	return s.transition(ctx, id, assess.StandardDraft, assess.ChangeStandardRejected, actor, check,
		"rejected_by = $4, rejected_at = $3, rejection_reason = $5", r.Reason)
}

// RetireStandard implements assess.StandardService: published → retired. While projects
// or entities use the standard it is refused (422 in_use, naming them) unless forced.
func (s *StandardService) RetireStandard(ctx context.Context, id string, r assess.RetireRequest, actor assess.Actor) (assess.Standard, error) {
	check := func(tx *postgres.Tx, st assess.Standard) (map[string]any, error) {
		usage, err := standardUsage(ctx, tx, st.ID)
		if err != nil {
			return nil, err
		}
		if usage.InUse() && !r.Force {
			return nil, usage.Error()
		}
		return map[string]any{"force": r.Force, "projects": usage.Projects, "entities": usage.Entities, "assessments": usage.Assessments}, nil
	}
	return s.transition(ctx, id, assess.StandardRetired, assess.ChangeStandardRetired, actor, check, "retired_at = $3")
}

// usageNames bounds the names a refusal lists per kind of user.
const usageNames = 10

// standardUsage tells what uses a standard: projects that include it, entities (not
// archived) with a compliance policy on it and assessments (not archived) against it.
// This is the one place that knows.
func standardUsage(ctx context.Context, q postgres.Querier, standardID string) (assess.StandardUsage, error) {
	var u assess.StandardUsage
	err := q.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM project_standards ps WHERE ps.standard_id = $1),
		coalesce((SELECT array_agg(name) FROM (SELECT p.name FROM project_standards ps JOIN projects p ON p.id = ps.project_id
			WHERE ps.standard_id = $1 ORDER BY lower(p.name), p.id LIMIT $2) n), '{}'),
		(SELECT count(DISTINCT cp.entity_id) FROM compliance_policies cp JOIN entities e ON e.id = cp.entity_id
			WHERE cp.standard_id = $1 AND e.state <> 'archived'),
		coalesce((SELECT array_agg(name) FROM (SELECT e.name FROM compliance_policies cp JOIN entities e ON e.id = cp.entity_id
			WHERE cp.standard_id = $1 AND e.state <> 'archived' ORDER BY lower(e.name), e.id LIMIT $2) n), '{}'),
		(SELECT count(*) FROM assessment_standards ast JOIN assessments a ON a.id = ast.assessment_id
			WHERE ast.standard_id = $1 AND a.state <> `+postgres.SQLLiteral(assess.AssessmentArchived)+`)`,
		standardID, usageNames).Scan(&u.Projects, &u.ProjectNames, &u.Entities, &u.EntityNames, &u.Assessments)
	return u, err
}
