package work

import (
	"context"
	"errors"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// checkAssessmentProject refuses a project that does not exist (400 naming projectId) or
// is archived (422 project_archived); empty means no project.
func checkAssessmentProject(ctx context.Context, q postgres.Querier, id string) error {
	if id == "" {
		return nil
	}
	var found, archived bool
	if assess.ValidID(assess.PrefixProject, id) {
		if err := q.QueryRow(ctx, "SELECT true, archived_at IS NOT NULL FROM projects WHERE id = $1", id).Scan(&found, &archived); err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
	}
	switch {
	case !found:
		return fieldError(assess.ECodeValidation, "projectId", "unknown", "The project does not exist.")
	case archived:
		return fieldError(assess.ECodeBusinessRule, "projectId", "project_archived", "An archived project takes no new assessments.")
	}
	return nil
}

// fieldError is an error of code with one detail naming field.
func fieldError(code, field, detailCode, msg string) error {
	return &assess.Error{Code: code, Message: msg, Details: []assess.Detail{{Field: field, Code: detailCode, Message: msg}}}
}

// replaceAssessmentStandards makes list the standards of assessment id, in its order: each
// standard must exist (400) and be published (422 standard_not_published), and a level
// must be one of that standard's (400 unknown_level).
func replaceAssessmentStandards(ctx context.Context, tx *postgres.Tx, id string, list []assess.AssessmentStandardInput) error {
	standardIDs, levelIDs := make([]string, len(list)), make([]string, len(list))
	for i, st := range list {
		standardIDs[i], levelIDs[i] = st.StandardID, st.LevelID
	}
	var known, unpublished, badLevels int
	if err := tx.QueryRow(ctx, `SELECT count(s.id), count(s.id) FILTER (WHERE s.state <> 'published'),
		count(*) FILTER (WHERE x.level_id <> '' AND NOT EXISTS (SELECT 1 FROM levels l WHERE l.id = x.level_id AND l.standard_id = x.standard_id))
		FROM unnest($1::text[], $2::text[]) AS x(standard_id, level_id) LEFT JOIN standards s ON s.id = x.standard_id`,
		standardIDs, levelIDs).Scan(&known, &unpublished, &badLevels); err != nil {
		return err
	}
	switch {
	case known != len(list):
		return fieldError(assess.ECodeValidation, "standards", "unknown", "A standard does not exist.")
	case badLevels > 0:
		return fieldError(assess.ECodeValidation, "standards", "unknown_level", "A level is not one of its standard's levels.")
	case unpublished > 0:
		return fieldError(assess.ECodeBusinessRule, "standards", "standard_not_published", "Only published standards can be assessed against.")
	}
	if _, err := tx.Exec(ctx, "DELETE FROM assessment_standards WHERE assessment_id = $1", id); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `INSERT INTO assessment_standards (assessment_id, standard_id, level_id, position)
		SELECT $1, x.standard_id, nullif(x.level_id, ''), x.n FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS x(standard_id, level_id, n)`,
		id, standardIDs, levelIDs)
	return err
}

// replaceTeam makes the given users the assessors and assessees of assessment id, and
// returns the users who were not on the team before. Every user must exist (400) and be
// active (422 user_inactive).
func replaceTeam(ctx context.Context, tx *postgres.Tx, id string, assessors, assessees []string) ([]string, error) {
	for _, side := range []struct {
		field string
		ids   []string
	}{{"assessorIds", assessors}, {"assesseeIds", assessees}} {
		if err := checkTeamUsers(ctx, tx, side.field, side.ids); err != nil {
			return nil, err
		}
	}
	var old []string
	if err := tx.QueryRow(ctx, `WITH gone AS (DELETE FROM assessment_members WHERE assessment_id = $1 RETURNING user_id)
		SELECT coalesce(array_agg(DISTINCT user_id), '{}') FROM gone`, id).Scan(&old); err != nil {
		return nil, err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO assessment_members (assessment_id, user_id, role, created_at)
		SELECT $1, u, 'assessor', $4::timestamptz FROM unnest($2::text[]) u
		UNION ALL SELECT $1, u, 'assessee', $4::timestamptz FROM unnest($3::text[]) u`,
		id, postgres.OrEmpty(assessors), postgres.OrEmpty(assessees), tx.Now); err != nil {
		return nil, err
	}
	added := []string{}
	for _, u := range slices.Concat(assessors, assessees) {
		if !slices.Contains(old, u) && !slices.Contains(added, u) {
			added = append(added, u)
		}
	}
	return added, nil
}

// checkTeamUsers refuses ids of users who do not exist (400 naming field) or are not
// active (422 user_inactive).
func checkTeamUsers(ctx context.Context, q postgres.Querier, field string, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	var known, inactive int
	if err := q.QueryRow(ctx, "SELECT count(*), count(*) FILTER (WHERE NOT active) FROM users WHERE id = ANY($1)", ids).Scan(&known, &inactive); err != nil {
		return err
	}
	switch {
	case known != len(ids):
		return fieldError(assess.ECodeValidation, field, "unknown", "A user does not exist.")
	case inactive > 0:
		return fieldError(assess.ECodeBusinessRule, field, "user_inactive", "Deactivated users cannot join a team.")
	}
	return nil
}

// UpdateAssessment implements assess.AssessmentService with optimistic concurrency. A
// complete, archived or cancelled assessment is read-only (409 read_only); the standards
// change only while it is new or pending (409 started).
func (s *AssessmentService) UpdateAssessment(ctx context.Context, id string, upd assess.AssessmentUpdate, actor assess.Actor) (assess.Assessment, error) {
	var a assess.Assessment
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := upd.Validate(); err != nil {
			return err
		}
		la, err := lockAssessment(ctx, tx, id, upd.Version)
		if err != nil {
			return err
		}
		if assess.AssessmentReadOnly(la.state) {
			return assess.ErrAssessmentReadOnly(la.state)
		}
		if err := applyAssessmentUpdate(ctx, tx, id, la, upd); err != nil {
			return err
		}
		if err := tx.BumpVersion(ctx, "assessments", id); err != nil {
			return err
		}
		a, err = recordAssessment(ctx, tx, assess.ChangeAssessmentUpdated, id, map[string]any{"changes": assessmentAuditChanges(upd)})
		return err
	})
	return a, err
}

// applyAssessmentUpdate writes the fields of upd.
func applyAssessmentUpdate(ctx context.Context, tx *postgres.Tx, id string, la lockedAssessment, upd assess.AssessmentUpdate) error {
	if upd.Standards != nil {
		if la.state != assess.AssessmentNew && la.state != assess.AssessmentPending {
			return assess.ErrAssessmentStarted
		}
		if err := replaceAssessmentStandards(ctx, tx, id, *upd.Standards); err != nil {
			return err
		}
	}
	if upd.ProjectID != nil {
		if err := checkAssessmentProject(ctx, tx, *upd.ProjectID); err != nil {
			return err
		}
	}
	if _, err := tx.Exec(ctx, `UPDATE assessments SET title = coalesce($2, title), description = coalesce($3, description),
		due_date = CASE WHEN $4::text IS NULL THEN due_date ELSE nullif($4::text, '')::date END,
		project_id = CASE WHEN $5::text IS NULL THEN project_id ELSE nullif($5::text, '') END,
		completion_evidence = coalesce($6, completion_evidence) WHERE id = $1`,
		id, upd.Title, upd.Description, upd.DueDate, upd.ProjectID, upd.CompletionEvidence); err != nil {
		return err
	}
	return postgres.ReplaceTags(ctx, tx, postgres.AssessmentTags, id, derefSet(upd.TagIDs))
}

// assessmentAuditChanges lists the fields an update sets.
func assessmentAuditChanges(upd assess.AssessmentUpdate) map[string]any {
	m := map[string]any{}
	postgres.PutSet(m, "title", upd.Title)
	postgres.PutSet(m, "description", upd.Description)
	postgres.PutSet(m, "dueDate", upd.DueDate)
	postgres.PutSet(m, "projectId", upd.ProjectID)
	postgres.PutSet(m, "tagIds", upd.TagIDs)
	postgres.PutSet(m, "standards", upd.Standards)
	postgres.PutSet(m, "completionEvidence", upd.CompletionEvidence)
	return m
}

// ReplaceAssessmentTeam implements assess.AssessmentService. The members added are told
// (assessment.assigned); a read-only assessment keeps its team (409 read_only).
func (s *AssessmentService) ReplaceAssessmentTeam(ctx context.Context, id string, t assess.TeamUpdate, actor assess.Actor) (assess.Assessment, error) {
	var a assess.Assessment
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := t.Validate(); err != nil {
			return err
		}
		la, err := lockAssessment(ctx, tx, id, t.Version)
		if err != nil {
			return err
		}
		if assess.AssessmentReadOnly(la.state) {
			return assess.ErrAssessmentReadOnly(la.state)
		}
		added, err := replaceTeam(ctx, tx, id, t.AssessorIDs, t.AssesseeIDs)
		if err != nil {
			return err
		}
		if err := tx.BumpVersion(ctx, "assessments", id); err != nil {
			return err
		}
		if a, err = findAssessment(ctx, tx, id, projectToday(tx.Now)); err != nil {
			return err
		}
		ev := assessmentEvent(a, "")
		ev.Audience = postgres.OrEmpty(added)
		return tx.Record(ctx, assess.ChangeAssessmentAssigned, assessmentTarget(id), map[string]any{
			"assessorIds": t.AssessorIDs, "assesseeIds": t.AssesseeIDs, "added": added}, ev)
	})
	return a, err
}

// DeleteAssessment implements assess.AssessmentService: the assessment goes for good with
// its requirements, results, links, claims and notes; a complete or archived one is kept
// (409 read_only). The event is recorded first, while the team may still see it.
func (s *AssessmentService) DeleteAssessment(ctx context.Context, id string, version int64, actor assess.Actor) error {
	return s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		la, err := lockAssessment(ctx, tx, id, version)
		if err != nil {
			return err
		}
		if assess.AssessmentFinished(la.state) {
			return assess.ErrAssessmentReadOnly(la.state)
		}
		if _, err := recordAssessment(ctx, tx, assess.ChangeAssessmentDeleted, id, map[string]any{"state": la.state}); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, "DELETE FROM assessments WHERE id = $1", id)
		return err
	})
}
