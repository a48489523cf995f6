package postgres_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

// TestMigration0039KeepsThePortfolioResultsThatExist migrates a database at version 38 holding
// finished assessments (complete and archived) of two entities against two standards, open
// and cancelled ones, and a finished one of an archived entity: the kept results count the
// finished ones only, the archived entity's apart, and the triggers keep them from then on
// (an assessment reopened, one completed, the archived entity taken out of the archive and
// renamed).
func TestMigration0039KeepsThePortfolioResultsThatExist(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := openPool(t, pgtest.NewEmptyDatabase(t))
	m0039 := migrateBelow(t, pool, 39)
	exec := func(sqls ...string) {
		t.Helper()
		for _, sql := range sqls {
			_, err := pool.Exec(ctx, sql)
			require.NoError(t, err, sql)
		}
	}
	exec(`INSERT INTO entities (id, name, entity_type, state) VALUES ('en_1', 'Shop', 'product', 'active'),
			('en_2', 'Bank', 'product', 'inactive'), ('en_3', 'Old', 'product', 'archived')`,
		`INSERT INTO standards (id, identifier, name, state) VALUES ('st_a', 'a', 'A', 'published'), ('st_b', 'b', 'B', 'published')`,
		`INSERT INTO assessments (id, title, entity_id, state) VALUES ('as_1', 'One', 'en_1', 'complete'),
			('as_2', 'Two', 'en_1', 'archived'), ('as_3', 'Three', 'en_1', 'in_progress'), ('as_4', 'Four', 'en_2', 'complete'),
			('as_5', 'Five', 'en_2', 'cancelled'), ('as_6', 'Six', 'en_3', 'complete')`,
		`INSERT INTO assessment_standards (assessment_id, standard_id) VALUES ('as_1', 'st_a'), ('as_1', 'st_b'), ('as_2', 'st_a'),
			('as_3', 'st_b'), ('as_4', 'st_b'), ('as_5', 'st_a'), ('as_6', 'st_a')`)
	applyMigration(t, pool, m0039)

	require.Equal(t, map[string][]int32{"en_1/st_a": {2, 0}, "en_1/st_b": {1, 0}, "en_2/st_b": {1, 0}, "en_3/st_a": {1, 1}},
		progressByKey(t, pool, entityResultsSQL))
	require.Equal(t, map[string][]int32{"en_1/shop": {2}, "en_2/bank": {1}}, progressByKey(t, pool, portfolioEntitiesSQL))
	require.Equal(t, map[string][]int32{"st_a": {1}, "st_b": {2}}, progressByKey(t, pool, portfolioStandardsSQL))
	requireKeptResults(t, pool)

	// From now on the triggers keep them.
	exec(`UPDATE assessments SET state = 'in_progress' WHERE id = 'as_4'`,
		`UPDATE assessments SET state = 'complete' WHERE id = 'as_3'`,
		`UPDATE entities SET state = 'active', name = 'New' WHERE id = 'en_3'`)
	require.Equal(t, map[string][]int32{"en_1/shop": {2}, "en_3/new": {1}}, progressByKey(t, pool, portfolioEntitiesSQL))
	require.Equal(t, map[string][]int32{"st_a": {2}, "st_b": {1}}, progressByKey(t, pool, portfolioStandardsSQL))
	requireKeptResults(t, pool)
}
