package work

import (
	"context"
	"maps"
	"math/big"
	"slices"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// The assessment lifecycle (docs/assessments.md, "States"): every move is one
// assess.AssessmentLifecycle allows, with the preconditions and effects of its target.
// Starting loads the requirements, completing checks the answers and keeps the score,
// reopening clears it, cancelling and completing set the end time.

// TransitionAssessment implements assess.AssessmentService.
func (s *AssessmentService) TransitionAssessment(ctx context.Context, id string, tr assess.AssessmentTransition, actor assess.Actor) (assess.Assessment, error) {
	var a assess.Assessment
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
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
func (s *AssessmentService) enterState(ctx context.Context, tx *postgres.Tx, id string, la lockedAssessment, to assess.AssessmentState) error {
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
		return completeAssessment(ctx, tx, id, la.state, s.minWords)
	case to == assess.AssessmentCancelled:
		_, err := tx.Exec(ctx, `UPDATE assessments SET ended_at = $2 WHERE id = $1`, id, tx.Now)
		return err
	}
	return nil
}

// reopenBlockers refuses to reopen a complete assessment when an attestation of it holds
// its result (assess.AttestationHoldsResult: being signed or sealed; 409
// affirmation_sealed): its result is what they sign.
func reopenBlockers(ctx context.Context, tx *postgres.Tx, id string) error {
	states, err := attestationStates(ctx, tx, id)
	switch {
	case err != nil:
	case slices.Contains(states, assess.AttestationImported):
		err = assess.ErrImportedReadOnly
	case slices.ContainsFunc(states, assess.AttestationHoldsResult):
		err = assess.ErrAffirmationSealed
	}
	return err
}

// startAssessment loads the requirements of an assessment starting for the first time
// and sets its start time. The standards are the assessment's own; when it names none,
// those of its entity's effective compliance policies (with their levels), else those of
// its project, become its standards (published ones only). Nothing to load is 422
// no_requirements.
func startAssessment(ctx context.Context, tx *postgres.Tx, id string) error {
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
func adoptStandards(ctx context.Context, tx *postgres.Tx, id string) error {
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

// completionFactsSQL loads what completing assessment $1 is decided from, in one row: its
// evidence rule and the answers of all its requirements (standard, result or null,
// whether the rationale is empty or only spaces, its word count, whether evidence is
// linked to it), as arrays in the same order. Whether evidence is linked is the row's
// count of links, which PostgreSQL keeps (migrations/0030_assessment_progress.sql).
const completionFactsSQL = `SELECT (SELECT completion_evidence FROM assessments WHERE id = $1),
	coalesce(array_agg(r.standard_id ORDER BY r.id), '{}'), coalesce(array_agg(r.result ORDER BY r.id), '{}'),
	coalesce(array_agg(btrim(r.rationale) = '' ORDER BY r.id), '{}'), coalesce(array_agg(r.rationale_words ORDER BY r.id), '{}'),
	coalesce(array_agg(r.evidence_links > 0 ORDER BY r.id), '{}')
	FROM assessment_requirements r WHERE r.assessment_id = $1`

// completionFacts loads the facts of assessment id, which is in state, that
// assess.CompletionBlockers and assess.ScoreAssessment decide from, in one query however
// many requirements it has.
func completionFacts(ctx context.Context, q postgres.Querier, id string, state assess.AssessmentState) (assess.CompletionFacts, error) {
	f := assess.CompletionFacts{State: state}
	var standards []string
	var results []*string
	var empty, linked []bool
	var words []int32
	// On its generic plan, the index of the assessment's requirements as on the custom
	// plans, which were made on every check (0.4 ms of planning for 0.6 ms of execution,
	// make bench's million-row data).
	if err := postgres.QueryRowOnGenericPlan(ctx, q, completionFactsSQL, []any{id}, func(r pgx.Row) error {
		return r.Scan(&f.Evidence, &standards, &results, &empty, &words, &linked)
	}); err != nil {
		return f, err
	}
	f.Answers = make([]assess.RequirementAnswer, len(standards))
	for i := range standards {
		a := &f.Answers[i]
		a.StandardID, a.RationaleEmpty, a.RationaleWords, a.EvidenceLinked = standards[i], empty[i], int(words[i]), linked[i]
		if results[i] != nil {
			a.Result = assess.Result(*results[i])
		}
	}
	return f, nil
}

// completeAssessment refuses to complete assessment id, which is in state, while
// assess.CompletionBlockers says so, and otherwise keeps its conformance scores, overall
// and per standard, and sets its end time.
func completeAssessment(ctx context.Context, tx *postgres.Tx, id string, state assess.AssessmentState, minWords int) error {
	f, err := completionFacts(ctx, tx, id, state)
	if err != nil {
		return err
	}
	if err := assess.CompletionBlockers(f, minWords); err != nil {
		return err
	}
	return keepScores(ctx, tx, id, assess.ScoreAssessment(f.Answers))
}

// CheckAssessmentCompletion implements assess.AssessmentService: the facts completing
// would load, decided by assess.CheckCompletion, in two reads (visibility with the state,
// then the facts) whatever the number of requirements.
func (s *AssessmentService) CheckAssessmentCompletion(ctx context.Context, id string, actor assess.Actor) (assess.CompletionCheck, error) {
	state, err := postgres.VisibleAssessmentState(ctx, s.db.Pool, actor, id, false)
	if err != nil {
		return assess.CompletionCheck{}, postgres.DBError(err)
	}
	f, err := completionFacts(ctx, s.db.Pool, id, state)
	if err != nil {
		return assess.CompletionCheck{}, postgres.DBError(err)
	}
	return assess.CheckCompletion(f, s.minWords), nil
}

// keepScores writes the scores of assessment id and sets its end time, in one statement:
// each standard with requirements gets its own score (the others keep none).
func keepScores(ctx context.Context, tx *postgres.Tx, id string, sc assess.AssessmentScores) error {
	standards := slices.Sorted(maps.Keys(sc.ByStandard))
	scores := make([]pgtype.Numeric, len(standards))
	for i, st := range standards {
		scores[i] = scoreNumeric(sc.ByStandard[st])
	}
	_, err := tx.Exec(ctx, `WITH std AS (
			UPDATE assessment_standards s SET conformance_score = v.score
			FROM unnest($3::text[], $4::numeric[]) AS v(standard_id, score)
			WHERE s.assessment_id = $1 AND s.standard_id = v.standard_id
		)
		UPDATE assessments SET ended_at = $2, conformance_score = $5 WHERE id = $1`,
		id, tx.Now, standards, scores, scoreNumeric(sc.Overall))
	return err
}

// scoreNumeric is a score as its numeric(5, 2) column takes it, exactly; nil is NULL.
func scoreNumeric(s *assess.Score) pgtype.Numeric {
	if s == nil {
		return pgtype.Numeric{}
	}
	return pgtype.Numeric{Int: big.NewInt(int64(*s)), Exp: -2, Valid: true}
}
