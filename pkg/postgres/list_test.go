package postgres_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
	"github.com/assay-dev/assay/pkg/postgres/services"
)

// TestListOnGenericPlanKeepsTheSwitchToItsPage: a list read on PostgreSQL's generic plan
// (List.GenericPlan), or planned for its values on every page (List.CustomPlan), pages as
// any list does, and the switch lasts for its page only: the connection's next statement
// (one connection in the pool, so it is the same one), or the rest of the transaction the
// page was read in, plans as before, and a change on generic plans stays on them.
func TestListOnGenericPlanKeepsTheSwitchToItsPage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool, err := postgres.OpenPool(ctx, pgtest.NewEmptyDatabase(t), postgres.PoolConfig{MaxConns: 1})
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	db := postgres.New(pool, nil)

	type row struct{ id, mode string }
	scan := func(r pgx.Row) (row, error) {
		var x row
		return x, r.Scan(&x.id, &x.mode)
	}
	key := func(x row) []any { return []any{x.id} }
	mode := func(q postgres.Querier) string {
		t.Helper()
		var m string
		require.NoError(t, q.QueryRow(ctx, "SHOW plan_cache_mode").Scan(&m))
		return m
	}
	for want, plan := range map[string]func(*postgres.List){"force_generic_plan": (*postgres.List).GenericPlan,
		"force_custom_plan": (*postgres.List).CustomPlan} {
		page := func(q postgres.Querier, cursor string) assess.Page[row] {
			t.Helper()
			l := postgres.NewList("rows", `SELECT r.id, current_setting('plan_cache_mode')
				FROM (SELECT 'r' || n AS id FROM generate_series(1, 5) n) r`, postgres.NewestFirst("r.id"))
			plan(l)
			p, err := postgres.CollectPage(ctx, q, l, assess.PageRequest{Limit: 2, Cursor: cursor}, scan, key)
			require.NoError(t, err)
			return p
		}

		first := page(db.Pool, "")
		require.Equal(t, []row{{"r5", want}, {"r4", want}}, first.Items)
		require.NotEmpty(t, first.NextCursor)
		require.Equal(t, []row{{"r3", want}, {"r2", want}}, page(db.Pool, first.NextCursor).Items)
		require.Equal(t, "auto", mode(db.Pool), "the switch outlived the page's batch")

		require.NoError(t, db.Change(ctx, assess.SystemActor, func(tx *postgres.Tx) error {
			require.Equal(t, want, page(tx, "").Items[0].mode)
			require.Equal(t, "auto", mode(tx), "the switch outlived the page in a transaction")
			return nil
		}))
		require.NoError(t, db.ChangeGeneric(ctx, assess.SystemActor, func(tx *postgres.Tx) error {
			require.Equal(t, want, page(tx, "").Items[0].mode)
			require.Equal(t, "force_generic_plan", mode(tx), "a change on generic plans left them")
			return nil
		}))
		require.Equal(t, "auto", mode(db.Pool))
	}
}

// TestListsRunOnGenericPlans: a participant's pages of assessments and of evidence (their
// own, and an assessment's), a page's follow-up reads (postgres.QueueOnGenericPlans: its
// team) and an assessment's timeline run on their generic plans from
// the first call, where PostgreSQL would make a custom plan for each of the first five and,
// on the million-row data, went on making them (docs/performance.md, "A participant's lists
// on their generic plans", "The timeline on its generic plan"). PostgreSQL counts, per
// prepared statement of the connection, the plans of each kind it made.
func TestListsRunOnGenericPlans(t *testing.T) {
	t.Parallel()
	w := newEvidenceWorkspace(t)
	annU := w.user("ann", assess.RoleAssessor)
	ann := signedIn(w.eventsFixture, annU)
	as, ars := w.assessmentWith("Shop review", assess.AssessmentInProgress)
	w.member(as, annU, assess.RoleInAssessmentAssessor)
	w.evidence(ann, assess.NewEvidence{Name: "SBOM", RequirementIDs: []string{ars[0]}})

	one, err := postgres.OpenPool(w.ctx, w.pool.Config().ConnString(), postgres.PoolConfig{MaxConns: 1})
	require.NoError(t, err)
	t.Cleanup(one.Close)
	svc := services.NewWith(postgres.New(one, nil), services.DefaultConfig())
	for range 3 {
		assessments, err := svc.Assessments.FindAssessments(w.ctx, assess.AssessmentFilter{}, ann)
		require.NoError(t, err)
		require.Len(t, assessments.Items, 1)
		for _, f := range []assess.EvidenceFilter{{}, {Assessment: as}} {
			evidence, err := svc.Evidence.FindEvidenceList(w.ctx, f, ann)
			require.NoError(t, err)
			require.Len(t, evidence.Items, 1)
		}
		timeline, err := svc.WorkNotes.FindTimeline(w.ctx, as, assess.TimelineFilter{}, ann)
		require.NoError(t, err)
		require.NotEmpty(t, timeline.Items)
	}
	for _, fragment := range []string{
		"WHERE (a.id IN (SELECT DISTINCT pp.assessment_id",                                       // the assessment list
		"e.id = ANY (ARRAY(SELECT fl.evidence_id",                                                // the evidence of a participant of few assessments
		"e.id IN (SELECT DISTINCT fl.evidence_id",                                                // an assessment's evidence
		"FROM audit_log a LEFT JOIN users au ON au.id = a.actor WHERE a.scope_id",                // the timeline
		"JOIN assessment_members m ON m.assessment_id = ids.id JOIN users u ON u.id = m.user_id", // a page's team
	} {
		var generic, custom int64
		require.NoError(t, one.QueryRow(w.ctx, `SELECT generic_plans, custom_plans FROM pg_prepared_statements
			WHERE strpos(statement, $1) > 0`, fragment).Scan(&generic, &custom))
		require.Equal(t, [2]int64{3, 0}, [2]int64{generic, custom}, "generic and custom plans of %q", fragment)
	}
}
