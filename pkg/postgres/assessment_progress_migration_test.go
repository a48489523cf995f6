package postgres_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

// TestMigration0030CountsTheProgressThatExists migrates a database at version 29 holding
// assessments with requirements of two standards — answered with each result, with blank,
// spaced and written rationales, unanswered with a rationale, linked to evidence once,
// twice or not — and one without requirements: the counters equal the aggregate counted in
// plain SQL, each requirement row counts its links, the assessment without requirements
// has no counters, and the triggers keep them from then on.
func TestMigration0030CountsTheProgressThatExists(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := openPool(t, pgtest.NewEmptyDatabase(t))
	m0030 := migrateBelow(t, pool, 30)
	for _, sql := range []string{
		`INSERT INTO entities (id, name, entity_type) VALUES ('en_1', 'Shop', 'product')`,
		`INSERT INTO users (id, username, email) VALUES ('u_1', 'author', 'author@example.com')`,
		`INSERT INTO standards (id, identifier, name, state) VALUES ('st_a', 'a', 'A', 'published'), ('st_b', 'b', 'B', 'published')`,
		`INSERT INTO requirements (id, standard_id, identifier, natural_key)
			SELECT 'rq_' || s || g, 'st_' || s, s || g, s || g FROM unnest(ARRAY['a', 'b']) s, generate_series(1, 6) g`,
		`INSERT INTO assessments (id, title, entity_id, state) VALUES ('as_1', 'One', 'en_1', 'in_progress'),
			('as_2', 'Two', 'en_1', 'complete'), ('as_3', 'Not started', 'en_1', 'new')`,
		`INSERT INTO assessment_requirements (id, assessment_id, requirement_id, standard_id, result, rationale) VALUES
			('ar_1a1', 'as_1', 'rq_a1', 'st_a', 'yes', 'Seen in the logs.'),
			('ar_1a2', 'as_1', 'rq_a2', 'st_a', 'partial', '   '),
			('ar_1a3', 'as_1', 'rq_a3', 'st_a', 'no', ''),
			('ar_1a4', 'as_1', 'rq_a4', 'st_a', NULL, 'Written, but no result.'),
			('ar_1b1', 'as_1', 'rq_b1', 'st_b', 'not_applicable', 'Not in scope.'),
			('ar_1b2', 'as_1', 'rq_b2', 'st_b', NULL, ''),
			('ar_2a1', 'as_2', 'rq_a1', 'st_a', 'yes', 'Checked.'),
			('ar_2a2', 'as_2', 'rq_a2', 'st_a', 'no', E'\t')`,
		`INSERT INTO evidence (id, name, author_id) VALUES ('ev_1', 'E1', 'u_1'), ('ev_2', 'E2', 'u_1')`,
		`INSERT INTO assessment_requirement_evidence (assessment_requirement_id, evidence_id, assessment_id) VALUES
			('ar_1a1', 'ev_1', 'as_1'), ('ar_1a1', 'ev_2', 'as_1'), ('ar_1a3', 'ev_1', 'as_1'), ('ar_1b2', 'ev_2', 'as_1'),
			('ar_2a2', 'ev_2', 'as_2')`,
	} {
		_, err := pool.Exec(ctx, sql)
		require.NoError(t, err, sql)
	}
	want := progressByKey(t, pool, progressAggregateSQL)
	applyMigration(t, pool, m0030)

	require.Equal(t, map[string][]int32{
		// total, answered, yes, partial, no, not applicable, with evidence
		"as_1/st_a": {4, 1, 1, 1, 1, 0, 2},
		"as_1/st_b": {2, 1, 0, 0, 0, 1, 1},
		"as_2/st_a": {2, 2, 1, 0, 1, 0, 1},
	}, want, "the aggregate (a tab is not blank to btrim)")
	require.Equal(t, want, progressByKey(t, pool, progressCountsSQL))
	var wrong, rows int
	require.NoError(t, pool.QueryRow(ctx, wrongLinkCountsSQL).Scan(&wrong))
	require.Zero(t, wrong, "requirement rows with a wrong link count")
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM assessment_progress WHERE assessment_id = 'as_3'`).Scan(&rows))
	require.Zero(t, rows, "no counters for an assessment without requirements")

	// From now on the triggers keep them.
	for _, sql := range []string{
		`UPDATE assessment_requirements SET result = 'yes', rationale = 'Now answered.' WHERE id IN ('ar_1a2', 'ar_1a4')`,
		`DELETE FROM assessment_requirement_evidence WHERE evidence_id = 'ev_1'`,
		`INSERT INTO assessment_requirements (id, assessment_id, requirement_id, standard_id) VALUES ('ar_3b1', 'as_3', 'rq_b1', 'st_b')`,
		`DELETE FROM assessments WHERE id = 'as_2'`,
	} {
		_, err := pool.Exec(ctx, sql)
		require.NoError(t, err, sql)
	}
	require.Equal(t, map[string][]int32{
		"as_1/st_a": {4, 3, 3, 0, 1, 0, 1},
		"as_1/st_b": {2, 1, 0, 0, 0, 1, 1},
		"as_3/st_b": {1, 0, 0, 0, 0, 0, 0},
	}, progressByKey(t, pool, progressCountsSQL))
	require.Equal(t, progressByKey(t, pool, progressAggregateSQL), progressByKey(t, pool, progressCountsSQL))
}
