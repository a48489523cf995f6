package postgres_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

// TestMigration0029KeepsEachCitationsAssessment migrates a database at version 28 that holds
// claims of two assessments citing evidence: every citation gets its claim's assessment, and
// so does one made afterwards (PostgreSQL fills it in, whatever the writer sends), while a
// citation of a claim that does not exist is still refused.
func TestMigration0029KeepsEachCitationsAssessment(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := openPool(t, pgtest.NewEmptyDatabase(t))
	m0029 := migrateBelow(t, pool, 29)
	for _, sql := range []string{
		`INSERT INTO entities (id, name, entity_type) VALUES ('en_1', 'Shop', 'product')`,
		`INSERT INTO assessments (id, title, entity_id) VALUES ('as_1', 'One', 'en_1'), ('as_2', 'Two', 'en_1')`,
		`INSERT INTO claims (id, assessment_id, name, target, predicate) VALUES
			('cl_1', 'as_1', 'A', 'the shop', 'p'), ('cl_2', 'as_2', 'B', 'the shop', 'p'), ('cl_3', 'as_2', 'C', 'the shop', 'p')`,
		`INSERT INTO users (id, username, email) VALUES ('u_1', 'author', 'author@example.com')`,
		`INSERT INTO evidence (id, name, author_id) VALUES ('ev_1', 'E1', 'u_1'), ('ev_2', 'E2', 'u_1')`,
		`INSERT INTO claim_evidence (claim_id, evidence_id, kind) VALUES
			('cl_1', 'ev_1', 'evidence'), ('cl_2', 'ev_1', 'counter_evidence'), ('cl_2', 'ev_2', 'mitigation')`,
	} {
		_, err := pool.Exec(ctx, sql)
		require.NoError(t, err, sql)
	}
	applyMigration(t, pool, m0029)

	citations := func() map[string]string {
		rows, err := pool.Query(ctx, `SELECT claim_id || '/' || evidence_id || '/' || kind, assessment_id FROM claim_evidence`)
		require.NoError(t, err)
		defer rows.Close()
		out := map[string]string{}
		for rows.Next() {
			var k, a string
			require.NoError(t, rows.Scan(&k, &a))
			out[k] = a
		}
		require.NoError(t, rows.Err())
		return out
	}
	require.Equal(t, map[string]string{"cl_1/ev_1/evidence": "as_1", "cl_2/ev_1/counter_evidence": "as_2",
		"cl_2/ev_2/mitigation": "as_2"}, citations())

	_, err := pool.Exec(ctx, `INSERT INTO claim_evidence (claim_id, evidence_id, kind, assessment_id) VALUES ('cl_3', 'ev_2', 'evidence', 'as_1')`)
	require.NoError(t, err)
	require.Equal(t, "as_2", citations()["cl_3/ev_2/evidence"], "the claim's assessment, not what the writer said")
	_, err = pool.Exec(ctx, `INSERT INTO claim_evidence (claim_id, evidence_id, kind) VALUES ('cl_9', 'ev_2', 'evidence')`)
	require.Error(t, err, "a claim that does not exist")
}
