package postgres

import (
	"context"
	"strconv"

	"github.com/assay-dev/assay/pkg/assess"
)

// The assessment lifecycle (docs/assessments.md, "States"): every move is one
// assess.AssessmentLifecycle allows, with the preconditions and effects of its target.
// Starting loads the requirements, completing checks the answers and keeps the score,
// reopening clears it, cancelling and completing set the end time.

// TransitionAssessment implements assess.AssessmentService.
func (s *AssessmentService) TransitionAssessment(ctx context.Context, id string, tr assess.AssessmentTransition, actor assess.Actor) (assess.Assessment, error) {
	var a assess.Assessment
	err := s.change(ctx, actor, func(tx *Tx) error {
		if err := tr.Validate(); err != nil {
			return err
		}
		la, err := lockAssessment(ctx, tx, id, tr.Version)
		if err != nil {
			return err
		}
		if tr.From != "" && la.state != tr.From {
			return notFrom(la.state, tr)
		}
		if err := assess.AssessmentLifecycle.Check(la.state, tr.To); err != nil {
			return err
		}
		if err := s.enterState(ctx, tx, id, la, tr.To); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "UPDATE assessments SET state = $2 WHERE id = $1", id, tr.To); err != nil {
			return err
		}
		if err := tx.BumpVersion(ctx, "assessments", id); err != nil {
			return err
		}
		if a, err = findAssessment(ctx, tx, id, projectToday(tx.Now)); err != nil {
			return err
		}
		details := map[string]any{"from": la.state, "to": tr.To, "reason": tr.Reason}
		if tr.To == assess.AssessmentComplete {
			details["conformanceScore"] = a.ConformanceScore
		}
		return tx.Record(ctx, assess.ChangeAssessmentStateChanged, assessmentTarget(id), details, assessmentEvent(a, la.state))
	})
	return a, err
}

// notFrom refuses an action that moves only from tr.From (reopen: only a complete
// assessment is reopened): 409 invalid_state_transition listing the moves the state has.
func notFrom(state assess.AssessmentState, tr assess.AssessmentTransition) error {
	err := &assess.Error{Code: assess.ECodeInvalidState,
		Message: "Only a " + string(tr.From) + " assessment can do this; this one is " + string(state) + "."}
	for _, s := range assess.AssessmentLifecycle.Allowed(state) {
		err.Details = append(err.Details, assess.Detail{Field: "state", Code: "allowed", Message: string(s)})
	}
	return err
}

// enterState runs the preconditions and effects of moving assessment id from la.state to
// to.
func (s *AssessmentService) enterState(ctx context.Context, tx *Tx, id string, la lockedAssessment, to assess.AssessmentState) error {
	switch {
	case to == assess.AssessmentInProgress && la.state == assess.AssessmentComplete:
		if err := reopenBlockers(ctx, tx, id); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE assessment_standards SET conformance_score = NULL WHERE assessment_id = $1`, id); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `UPDATE assessments SET conformance_score = NULL, ended_at = NULL WHERE id = $1`, id)
		return err
	case to == assess.AssessmentInProgress && la.startedAt == nil:
		return startAssessment(ctx, tx, id)
	case to == assess.AssessmentComplete:
		if err := completionBlockers(ctx, tx, id, s.rationaleMinWords); err != nil {
			return err
		}
		return scoreAssessment(ctx, tx, id)
	case to == assess.AssessmentCancelled:
		_, err := tx.Exec(ctx, `UPDATE assessments SET ended_at = $2 WHERE id = $1`, id, tx.Now)
		return err
	}
	return nil
}

// reopenBlockers refuses to reopen a complete assessment when an attestation of it is
// being signed or is sealed (409 affirmation_sealed): its result is what they sign. A
// rescinded attestation no longer holds it.
func reopenBlockers(ctx context.Context, tx *Tx, id string) error {
	locked, err := attestationLocksResult(ctx, tx, id)
	if err == nil && locked {
		err = assess.ErrAffirmationSealed
	}
	return err
}

// startAssessment loads the requirements of an assessment starting for the first time
// and sets its start time. The standards are the assessment's own; when it names none,
// those of its entity's effective compliance policies (with their levels), else those of
// its project, become its standards (published ones only). Nothing to load is 422
// no_requirements.
func startAssessment(ctx context.Context, tx *Tx, id string) error {
	var named bool
	if err := tx.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM assessment_standards WHERE assessment_id = $1)", id).Scan(&named); err != nil {
		return err
	}
	if !named {
		if err := adoptStandards(ctx, tx, id); err != nil {
			return err
		}
	}
	var most int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM requirements r JOIN assessment_standards s ON s.standard_id = r.standard_id
		WHERE s.assessment_id = $1`, id).Scan(&most); err != nil {
		return err
	}
	ids := assess.NewIDs(assess.PrefixAssessmentRequirement, tx.Now, most)
	tag, err := tx.Exec(ctx, loadRequirementsSQL, id, ids, tx.Now)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return assess.ErrNoRequirements
	}
	_, err = tx.Exec(ctx, "UPDATE assessments SET started_at = $2 WHERE id = $1", id, tx.Now)
	return err
}

// adoptStandards makes the standards of the entity's effective compliance policies (the
// policy's level with each), else of the project, the standards of assessment id.
func adoptStandards(ctx context.Context, tx *Tx, id string) error {
	var entityID string
	if err := tx.QueryRow(ctx, "SELECT entity_id FROM assessments WHERE id = $1", id).Scan(&entityID); err != nil {
		return err
	}
	inheriting := make([]string, len(assess.InheritingRelationships))
	for i, t := range assess.InheritingRelationships {
		inheriting[i] = string(t)
	}
	tag, err := tx.Exec(ctx, `INSERT INTO assessment_standards (assessment_id, standard_id, level_id, position)
		SELECT $4, ep.standard_id, nullif(ep.level_id, ''),
			row_number() OVER (ORDER BY ep.depth > 0, ep.sort_name, ep.standard_version, ep.id)
		FROM (`+effectivePoliciesSQL+`) AS ep(id, entity_id, standard_id, standard_name, standard_version, level_id, level_name,
			description, version, created_at, updated_at, depth, from_name, sort_name)
		JOIN standards s ON s.id = ep.standard_id AND s.state = 'published'`,
		entityID, assess.MaxInheritanceDepth, inheriting, id)
	if err != nil || tag.RowsAffected() > 0 {
		return err
	}
	_, err = tx.Exec(ctx, `INSERT INTO assessment_standards (assessment_id, standard_id, position)
		SELECT a.id, s.id, row_number() OVER (ORDER BY lower(s.name), s.standard_version, s.id)
		FROM assessments a JOIN project_standards ps ON ps.project_id = a.project_id
		JOIN standards s ON s.id = ps.standard_id AND s.state = 'published' WHERE a.id = $1`, id)
	return err
}

// loadRequirementsSQL inserts the requirements of assessment $1 from its standards: the
// requirements without children, of the standard's level when one is set (a requirement
// belongs to a level when it or a group above it is in the level's set), in standard
// order and then depth first by position and natural key — the order of their ids: row n
// takes the n-th of $2, ascending identifiers made by assess.NewIDs, at least as many as
// the standards have requirements.
const loadRequirementsSQL = `WITH RECURSIVE sel AS (
		SELECT standard_id, level_id, position FROM assessment_standards WHERE assessment_id = $1
	), ranked AS (
		SELECT r.id, r.parent_id, r.standard_id, sel.position AS std_pos,
			row_number() OVER (PARTITION BY r.standard_id, r.parent_id ORDER BY r.position, r.natural_key, r.id) AS rk,
			(sel.level_id IS NULL OR EXISTS (SELECT 1 FROM level_requirements lr
				WHERE lr.level_id = sel.level_id AND lr.requirement_id = r.id)) AS in_level
		FROM requirements r JOIN sel ON sel.standard_id = r.standard_id
	), walk AS (
		SELECT id, standard_id, std_pos, in_level, ARRAY[rk] AS path FROM ranked WHERE parent_id IS NULL
		UNION ALL
		SELECT c.id, c.standard_id, c.std_pos, c.in_level OR w.in_level, w.path || c.rk FROM ranked c JOIN walk w ON c.parent_id = w.id
	)
	INSERT INTO assessment_requirements (id, assessment_id, requirement_id, standard_id, created_at, updated_at)
	SELECT ($2::text[])[row_number() OVER (ORDER BY w.std_pos, w.standard_id, w.path)],
		$1, w.id, w.standard_id, $3, $3
	FROM walk w WHERE w.in_level AND NOT EXISTS (SELECT 1 FROM requirements ch WHERE ch.parent_id = w.id)`

// completionBlockers refuses to complete an assessment with unanswered requirements,
// results whose rationale is shorter than minWords words, or no evidence linked while not
// every result is not applicable: 422 with one detail per rule broken, counts as messages.
func completionBlockers(ctx context.Context, tx *Tx, id string, minWords int) error {
	var unanswered, missing, applicable int
	var evidence bool
	if err := tx.QueryRow(ctx, `SELECT count(*) FILTER (WHERE result IS NULL),
		count(*) FILTER (WHERE result IS NOT NULL
			AND (btrim(rationale) = '' OR rationale_words < $2)),
		count(*) FILTER (WHERE result IS DISTINCT FROM 'not_applicable'),
		EXISTS (SELECT 1 FROM assessment_requirement_evidence l WHERE l.assessment_id = $1)
		FROM assessment_requirements WHERE assessment_id = $1`, id, minWords).Scan(&unanswered, &missing, &applicable, &evidence); err != nil {
		return err
	}
	var details []assess.Detail
	if unanswered > 0 {
		details = append(details, assess.Detail{Field: "requirements", Code: "unanswered", Message: strconv.Itoa(unanswered)})
	}
	if missing > 0 {
		details = append(details, assess.Detail{Field: "requirements", Code: "missing_rationale", Message: strconv.Itoa(missing)})
	}
	if !evidence && applicable > 0 {
		details = append(details, assess.Detail{Field: "evidence", Code: "no_evidence", Message: "Link evidence to at least one requirement."})
	}
	if len(details) == 0 {
		return nil
	}
	return &assess.Error{Code: assess.ECodeBusinessRule, Details: details,
		Message: "The assessment cannot be completed yet: every requirement needs a result and a rationale, and evidence must be linked."}
}

// scoreAssessment keeps the conformance score of assessment id, overall and per standard
// (docs/assessments.md, "Score"): 100 × (yes + ½ partial) / (yes + partial + no), not
// applicable left out, two decimals, null when every answer is not applicable; and sets
// the end time.
func scoreAssessment(ctx context.Context, tx *Tx, id string) error {
	_, err := tx.Exec(ctx, `WITH per AS (
			SELECT standard_id, count(*) FILTER (WHERE result = 'yes') AS yes,
				count(*) FILTER (WHERE result = 'partial') AS partial, count(*) FILTER (WHERE result = 'no') AS no
			FROM assessment_requirements WHERE assessment_id = $1 GROUP BY standard_id
		), std AS (
			UPDATE assessment_standards s SET conformance_score = round(100.0 * (per.yes + 0.5 * per.partial) / nullif(per.yes + per.partial + per.no, 0), 2)
			FROM per WHERE s.assessment_id = $1 AND s.standard_id = per.standard_id
		)
		UPDATE assessments SET ended_at = $2, conformance_score = (SELECT round(100.0 * (sum(yes) + 0.5 * sum(partial))
			/ nullif(sum(yes + partial + no), 0), 2) FROM per) WHERE id = $1`, id, tx.Now)
	return err
}
