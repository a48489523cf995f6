package postgres_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

// TestGINIndexesKeepShortPendingLists (migration 0045): every GIN index of ours merges its
// pending list once it passes 256 kB, so a search after many writes reads a short list, not
// up to 4 MB of them: after 3,000 new pieces of evidence, before vacuum, the evidence list's
// search for a word found nowhere reads at most 100 pages through its trigram indexes (about
// 500 with the default limit). A GIN index added later without the setting fails the first
// part; River's own indexes are River's.
func TestGINIndexesKeepShortPendingLists(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := openPool(t, pgtest.NewDatabase(t))
	rows, err := pool.Query(ctx, `SELECT c.relname, coalesce(array_to_string(c.reloptions, ','), '')
		FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
		WHERE c.relam = (SELECT oid FROM pg_am WHERE amname = 'gin') AND t.relname NOT LIKE 'river\_%'
		AND t.relnamespace = 'public'::regnamespace ORDER BY 1`)
	require.NoError(t, err)
	type index struct{ name, options string }
	indexes, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (index, error) {
		var i index
		return i, r.Scan(&i.name, &i.options)
	})
	require.NoError(t, err)
	for _, i := range indexes {
		require.Contains(t, i.options, "gin_pending_list_limit=256", i.name)
	}
	require.GreaterOrEqual(t, len(indexes), 17, "the search and trigram indexes of migrations 0027 and 0043")

	conn, err := pool.Acquire(ctx)
	require.NoError(t, err)
	defer conn.Release()
	for _, sql := range []string{
		`ALTER TABLE evidence SET (autovacuum_enabled = off)`, // the lists stay until a vacuum would merge them
		`INSERT INTO users (id, username, email) VALUES ('u_1', 'author', 'author@example.com')`,
		`INSERT INTO evidence (id, name, description, author_id)
			SELECT 'ev_' || lpad(g::text, 26, '0'), 'Scan report ' || g, 'Weekly dependency scan of service ' || g || '.', 'u_1'
			FROM generate_series(1, 3000) g`,
		`SET enable_seqscan = off`, // as PostgreSQL plans the search at scale
	} {
		_, err := conn.Exec(ctx, sql)
		require.NoError(t, err, sql)
	}
	var plan []struct {
		Plan struct {
			Hit  int `json:"Shared Hit Blocks"`
			Read int `json:"Shared Read Blocks"`
		} `json:"Plan"`
	}
	var out []byte
	require.NoError(t, conn.QueryRow(ctx, `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)
		SELECT id FROM evidence WHERE name ILIKE '%zzqq%' OR description ILIKE '%zzqq%'`).Scan(&out))
	require.NoError(t, json.Unmarshal(out, &plan))
	require.LessOrEqual(t, plan[0].Plan.Hit+plan[0].Plan.Read, 100, "pages read by a search after 3,000 writes:\n%s", out)
}
