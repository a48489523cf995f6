package work

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/datagen"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// TestEvidencePageLooksUpEachRowsFacts plans a page of the evidence list on generated data
// (datagen.Small: 1,500 pieces of evidence and the citations of 3,000 claims, analysed): each
// per-row fact of the page (its lock facts, its counts) is a lookup of that row's entries,
// never a hashed subplan that reads a whole table first. PostgreSQL plans an EXISTS both
// ways and chooses by the rows it expects the select list to run for — the whole table's,
// not the page's 51 — so from some size on it hashed every citation of every claim on every
// page: make bench's 100,000-row data (100,090 citations) read them all, 25 ms of a page's 25.
func TestEvidencePageLooksUpEachRowsFacts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, pgtest.NewDatabase(t))
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	// The roles the generator gives its people (the server's start writes them with their
	// permissions, which this plan does not read).
	_, err = pool.Exec(ctx, `INSERT INTO roles (id, name, builtin) SELECT 'ro_' || n, n, true FROM unnest($1::text[]) n`,
		[]string{assess.RoleAdmin, assess.RoleAssessor, assess.RoleAssessee, assess.RoleStandardsManager, assess.RoleStandardsApprover})
	require.NoError(t, err)
	sum, err := datagen.Generate(ctx, pool, datagen.Small)
	require.NoError(t, err)
	_, err = pool.Exec(ctx, "ANALYZE")
	require.NoError(t, err)
	for name, actor := range map[string]assess.Actor{
		"administrator": {ID: "u_admin", Principal: &assess.Principal{User: assess.User{ID: "u_admin"},
			Permissions: []string{string(assess.PermAssessmentsViewAll)}}},
		"participant": {ID: sum.ParticipantID, Principal: &assess.Principal{User: assess.User{ID: sum.ParticipantID}}},
	} {
		var args postgres.SQLArgs
		sql := "EXPLAIN (VERBOSE) SELECT " + evidenceColumns(actor, args.Add) + evidenceFrom + " ORDER BY e.id DESC LIMIT 51"
		rows, err := pool.Query(ctx, sql, args...)
		require.NoError(t, err)
		var plan []string
		for rows.Next() {
			var line string
			require.NoError(t, rows.Scan(&line))
			plan = append(plan, line)
		}
		require.NoError(t, rows.Err())
		require.NotContains(t, strings.Join(plan, "\n"), "hashed SubPlan", name)
	}
}
