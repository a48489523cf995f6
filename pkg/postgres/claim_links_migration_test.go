package postgres_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

// claimLinksSQL is each requirement row's count of claims as PostgreSQL keeps it
// (migrations/0038_requirement_claim_links.sql), claimLinksAggregateSQL the same counted
// from claim_requirements. Rows without claims are left out of both.
const (
	claimLinksSQL          = `SELECT id, ARRAY[claim_links] FROM assessment_requirements WHERE claim_links <> 0`
	claimLinksAggregateSQL = `SELECT assessment_requirement_id, ARRAY[count(*)]::int[] FROM claim_requirements GROUP BY 1`
)

// TestMigration0038CountsTheClaimsThatExist migrates a database at version 37 holding
// requirement rows named by no claim, by one and by two, in two assessments: each row then
// counts its claims, and the triggers keep the counts through claims added (several rows in
// one statement), a claim's requirements changed in place, a claim deleted, and an
// assessment deleted with its requirements and claims, while the progress counters stay
// what they were.
func TestMigration0038CountsTheClaimsThatExist(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := openPool(t, pgtest.NewEmptyDatabase(t))
	m0038 := migrateBelow(t, pool, 38)
	exec := func(sqls ...string) {
		t.Helper()
		for _, sql := range sqls {
			_, err := pool.Exec(ctx, sql)
			require.NoError(t, err, sql)
		}
	}
	exec(`INSERT INTO entities (id, name, entity_type) VALUES ('en_1', 'Shop', 'product')`,
		`INSERT INTO standards (id, identifier, name, state) VALUES ('st_a', 'a', 'A', 'published')`,
		`INSERT INTO requirements (id, standard_id, identifier, natural_key)
			SELECT 'rq_a' || g, 'st_a', 'a' || g, 'a' || g FROM generate_series(1, 4) g`,
		`INSERT INTO assessments (id, title, entity_id, state) VALUES ('as_1', 'One', 'en_1', 'in_progress'),
			('as_2', 'Two', 'en_1', 'in_progress')`,
		`INSERT INTO assessment_requirements (id, assessment_id, requirement_id, standard_id, result, rationale) VALUES
			('ar_1a1', 'as_1', 'rq_a1', 'st_a', 'yes', 'Seen.'), ('ar_1a2', 'as_1', 'rq_a2', 'st_a', NULL, ''),
			('ar_1a3', 'as_1', 'rq_a3', 'st_a', NULL, ''), ('ar_2a1', 'as_2', 'rq_a1', 'st_a', 'no', 'Missing.')`,
		`INSERT INTO claims (id, assessment_id, name, target, predicate) VALUES ('cl_1', 'as_1', 'C1', 'T', 'P'),
			('cl_2', 'as_1', 'C2', 'T', 'P'), ('cl_3', 'as_2', 'C3', 'T', 'P')`,
		`INSERT INTO claim_requirements (claim_id, assessment_requirement_id) VALUES ('cl_1', 'ar_1a1'), ('cl_2', 'ar_1a1'),
			('cl_2', 'ar_1a2'), ('cl_3', 'ar_2a1')`)
	progress := progressByKey(t, pool, progressAggregateSQL)
	applyMigration(t, pool, m0038)

	want := map[string][]int32{"ar_1a1": {2}, "ar_1a2": {1}, "ar_2a1": {1}}
	require.Equal(t, want, progressByKey(t, pool, claimLinksAggregateSQL))
	require.Equal(t, want, progressByKey(t, pool, claimLinksSQL))

	// From now on the triggers keep them.
	exec(`INSERT INTO claims (id, assessment_id, name, target, predicate) VALUES ('cl_4', 'as_1', 'C4', 'T', 'P')`,
		`INSERT INTO claim_requirements (claim_id, assessment_requirement_id) VALUES ('cl_4', 'ar_1a3'), ('cl_4', 'ar_1a2'), ('cl_4', 'ar_1a1')`,
		`UPDATE claim_requirements SET assessment_requirement_id = 'ar_1a3' WHERE claim_id = 'cl_1'`,
		`DELETE FROM claims WHERE id = 'cl_2'`)
	require.Equal(t, map[string][]int32{"ar_1a1": {1}, "ar_1a2": {1}, "ar_1a3": {2}, "ar_2a1": {1}}, progressByKey(t, pool, claimLinksSQL))
	exec(`DELETE FROM assessments WHERE id = 'as_2'`)
	require.Equal(t, progressByKey(t, pool, claimLinksAggregateSQL), progressByKey(t, pool, claimLinksSQL))
	delete(progress, "as_2/st_a")
	require.Equal(t, progress, progressByKey(t, pool, progressCountsSQL), "the progress counters do not change with claims")
}
