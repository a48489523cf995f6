package work

import (
	"context"
	"encoding/json"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// projectFiguresQuery counts a project's assessments in one statement: $1 the project, $2
// today, $3 the project's due date (or null); vis is the visibility condition on a (or
// "true"). Requirements of cancelled assessments count for nothing; overdue is
// assess.AssessmentOverdue; the scores, summed in hundredths for assess.FiguresOf to
// average, are those of finished assessments (assess.FinishedAssessmentStates); the
// progress of each assessment not cancelled is assess.AssessmentProgressPoints, summed.
// The requirements, those with a result (whichever) and those with evidence are read from
// the assessments' progress counters (assessment_progress), not counted row by row.
func projectFiguresQuery(vis string) string {
	finished := postgres.SQLList(assess.FinishedAssessmentStates)
	cancelled := postgres.SQLLiteral(assess.AssessmentCancelled)
	return `WITH a AS MATERIALIZED (
		SELECT a.id, a.state, a.due_date, a.conformance_score FROM assessments a WHERE a.project_id = $1 AND ` + vis + `
	), per AS (
		SELECT a.state, coalesce(sum(p.total), 0) AS total,
			coalesce(sum(p.yes + p.partial + p.no + p.not_applicable), 0) AS answered, coalesce(sum(p.with_evidence), 0) AS with_evidence
		FROM a LEFT JOIN assessment_progress p ON p.assessment_id = a.id
		WHERE a.state <> ` + cancelled + ` GROUP BY a.id, a.state
	), req AS (
		SELECT coalesce(sum(total), 0)::bigint AS total, coalesce(sum(answered), 0)::bigint AS answered,
			coalesce(sum(with_evidence), 0)::bigint AS with_evidence FROM per
	)
	SELECT coalesce((SELECT jsonb_object_agg(state, n) FROM (SELECT state, count(*) AS n FROM a GROUP BY state) s), '{}'),
		(SELECT count(*) FROM a WHERE ` + assessmentOverdueSQL("a", "$2") + `),
		req.total, req.answered, req.with_evidence,
		(SELECT coalesce(sum(a.conformance_score * 100), 0)::bigint FROM a WHERE a.state IN ` + finished + `),
		(SELECT count(a.conformance_score) FROM a WHERE a.state IN ` + finished + `),
		(SELECT coalesce(sum(CASE WHEN per.state IN ` + finished + ` THEN 10000 WHEN per.total = 0 THEN 0
			ELSE per.answered * 10000 / per.total END), 0)::bigint FROM per),
		(SELECT count(*) FROM a WHERE a.state NOT IN ` + postgres.SQLList(assess.ReadOnlyAssessmentStates) + ` AND a.due_date > $3::date)
	FROM req`
}

// FindProjectFigures implements assess.ProjectService: the figures count only the
// project's assessments that actor may see (the object-level rule of visibility.go), so
// they reveal nothing about the others.
func (s *ProjectService) FindProjectFigures(ctx context.Context, id string, actor assess.Actor) (assess.ProjectFigures, error) {
	p, err := s.FindProject(ctx, id)
	if err != nil {
		return assess.ProjectFigures{}, err
	}
	args := postgres.SQLArgs{p.ID, projectToday(s.db.Now()), postgres.Nullable(p.DueDate)}
	vis := postgres.AssessmentVisibleSQL(actor, "a.id", args.Add)
	if vis == "" {
		vis = "true"
	}
	var c assess.ProjectAssessmentCounts
	var byState []byte
	var overdue, total, answered, withEvidence, scoreSum, scored, dueAfter int64
	if err := s.db.Pool.QueryRow(ctx, projectFiguresQuery(vis), args...).Scan(&byState, &overdue, &total, &answered, &withEvidence,
		&scoreSum, &scored, &c.ProgressSum, &dueAfter); err != nil {
		return assess.ProjectFigures{}, postgres.DBError(err)
	}
	if err := json.Unmarshal(byState, &c.ByState); err != nil {
		return assess.ProjectFigures{}, err
	}
	c.Overdue, c.Requirements, c.Answered, c.WithEvidence, c.Scored = int(overdue), int(total), int(answered), int(withEvidence), int(scored)
	c.ScoreSum, c.DueAfterProject = assess.Score(scoreSum), int(dueAfter)
	return assess.FiguresOf(p, c), nil
}
