package postgres_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

// TestProjectCompletionCountsEveryAssessment (issue 26 item 2): a project's completion is
// the mean progress of its assessments that are not cancelled — one not started counts 0,
// not nothing — summed in SQL as assess.AssessmentProgressPoints decides in Go; the
// assessments still open and due after the project's due date are counted and warned of.
func TestProjectCompletionCountsEveryAssessment(t *testing.T) {
	t.Parallel()
	f := newEventsFixture(t, allOff())
	day := func(days int) string { return f.clock.Now().UTC().AddDate(0, 0, days).Format(time.DateOnly) }
	exec := func(sql string, args ...any) {
		t.Helper()
		_, err := f.pool.Exec(f.ctx, sql, args...)
		require.NoError(t, err, sql)
	}
	project := assess.NewID(assess.PrefixProject, f.clock.Now())
	exec(`INSERT INTO entities (id, name, entity_type) VALUES ('en_1', 'Shop', 'product')`)
	exec(`INSERT INTO projects (id, name, state, due_date) VALUES ($1, 'Yearly', 'in_progress', $2::date)`, project, day(10))
	exec(`INSERT INTO standards (id, identifier, name, state) VALUES ('st_1', 'asvs', 'ASVS', 'published')`)
	for i := 1; i <= 4; i++ {
		exec(`INSERT INTO requirements (id, standard_id, identifier, natural_key) VALUES ($1, 'st_1', $2, $2)`, fmt.Sprintf("rq_%d", i), fmt.Sprintf("V%d", i))
	}
	cases := []struct {
		state                  assess.AssessmentState
		due                    string
		requirements, answered int
	}{
		{assess.AssessmentComplete, "", 2, 2},
		{assess.AssessmentNew, day(20), 0, 0},        // not started, due after the project
		{assess.AssessmentInProgress, day(30), 4, 1}, // a quarter, due after the project
		{assess.AssessmentOnHold, day(5), 3, 2},      // two thirds (6666 points), due before
		{assess.AssessmentCancelled, day(40), 2, 1},  // counts for nothing
		{assess.AssessmentArchived, day(50), 1, 1},   // finished: due after, but nothing left to do
	}
	var points int64
	var counted int
	for _, c := range cases {
		id := assess.NewID(assess.PrefixAssessment, f.clock.Now())
		exec(`INSERT INTO assessments (id, title, entity_id, project_id, state, due_date) VALUES ($1, $2, 'en_1', $3, $4, nullif($5, '')::date)`,
			id, string(c.state), project, c.state, c.due)
		for i := 1; i <= c.requirements; i++ {
			result := any(nil)
			if i <= c.answered {
				result = "yes"
			}
			exec(`INSERT INTO assessment_requirements (id, assessment_id, requirement_id, standard_id, result) VALUES ($1, $2, $3, 'st_1', $4)`,
				assess.NewID(assess.PrefixAssessmentRequirement, f.clock.Now()), id, fmt.Sprintf("rq_%d", i), result)
		}
		if c.state != assess.AssessmentCancelled {
			points += assess.AssessmentProgressPoints(c.state, c.requirements, c.answered)
			counted++
		}
	}

	figures, err := f.svc.Projects.FindProjectFigures(f.ctx, project, actorOf(f.admin, assess.PermAssessmentsView, assess.PermAssessmentsViewAll))
	require.NoError(t, err)
	require.Equal(t, int64(10000+0+2500+6666+10000), points)
	require.NotNil(t, figures.Assessments.PercentComplete)
	require.Equal(t, 58.33, *figures.Assessments.PercentComplete, "%d points over %d assessments", points, counted)
	require.Equal(t, 2, figures.Assessments.Complete)
	require.Equal(t, 6, figures.Assessments.Total)
	var due *assess.ProjectWarning
	for i, w := range figures.Warnings {
		if w.Code == "assessments_due_after_project" {
			due = &figures.Warnings[i]
		}
	}
	require.NotNil(t, due, "warnings %+v", figures.Warnings)
	require.Equal(t, 2, due.Count)
	require.Equal(t, "warning", due.Severity)
}
