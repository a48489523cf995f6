package postgres_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

// TestStandardRequirementCountFollowsEveryWrite: migration 0034 counts the requirements that
// exist, and its triggers keep each standard's count equal to its requirements through
// inserts into several standards in one statement, a move between standards, deletes and a
// standard deleted with its requirements.
func TestStandardRequirementCountFollowsEveryWrite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := openPool(t, pgtest.NewEmptyDatabase(t))
	m0034 := migrateBelow(t, pool, 34)
	exec := func(sql string) {
		t.Helper()
		_, err := pool.Exec(ctx, sql)
		require.NoError(t, err, sql)
	}
	counts := func() map[string][]int32 {
		t.Helper()
		return progressByKey(t, pool, `SELECT id, ARRAY[requirement_count, (SELECT count(*) FROM requirements r WHERE r.standard_id = s.id)]::int[]
			FROM standards s`)
	}
	exec(`INSERT INTO standards (id, identifier, name, state) VALUES ('st_a', 'a', 'A', 'draft'), ('st_b', 'b', 'B', 'draft'), ('st_c', 'c', 'C', 'draft')`)
	exec(`INSERT INTO requirements (id, standard_id, identifier, natural_key) SELECT 'rq_a' || g, 'st_a', 'a' || g, 'a' || g FROM generate_series(1, 5) g`)
	applyMigration(t, pool, m0034)
	require.Equal(t, map[string][]int32{"st_a": {5, 5}, "st_b": {0, 0}, "st_c": {0, 0}}, counts())

	exec(`INSERT INTO requirements (id, standard_id, identifier, natural_key)
		SELECT 'rq_' || s || g, 'st_' || s, s || g, s || g FROM unnest(ARRAY['b', 'c']) s, generate_series(1, 3) g`)
	exec(`UPDATE requirements SET standard_id = 'st_b', identifier = 'moved' WHERE id = 'rq_a1'`)
	exec(`UPDATE requirements SET name = 'Renamed'`)
	exec(`DELETE FROM requirements WHERE id IN ('rq_a2', 'rq_c1')`)
	require.Equal(t, map[string][]int32{"st_a": {3, 3}, "st_b": {4, 4}, "st_c": {2, 2}}, counts())
	exec(`DELETE FROM standards WHERE id = 'st_c'`)
	require.Equal(t, map[string][]int32{"st_a": {3, 3}, "st_b": {4, 4}}, counts())
}
