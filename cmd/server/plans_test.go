package main

import (
	"context"
	"net/http"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

// TestHotListsUseGenericPlans: the page query of a hot list, prepared once per connection
// as the server does, is planned once and then runs on PostgreSQL's generic plan — rather
// than being planned anew for every request because a plan for the given parameters looked
// cheaper (docs/performance.md, "Generic plans"). The entity list did that while the state
// it leaves out (archived) was a parameter: 0.11 ms of planning for 0.08 ms of execution
// per page. The tables hold enough rows for the planner's estimates to matter.
func TestHotListsUseGenericPlans(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := pgtest.NewDatabase(t)
	counter := &queryCounter{counts: map[string]int{}, sql: map[string][]string{}, args: map[string][][]any{}}
	ts := startTracedServer(t, dsn, counter)
	key := ts.bearerClient(ts.newAPIKey(t, ts.admin(t)))
	for range 3 {
		ts.newUser(t, "assessor")
	}
	conn, err := pgx.Connect(ctx, dsn)
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.Close(ctx) })
	_, err = conn.Exec(ctx, `INSERT INTO entities (id, name, description, entity_type)
		SELECT 'en_' || lpad(to_hex(g), 26, '0'), 'Entity ' || md5(g::text), 'For the plan test', 'team'
		FROM generate_series(1, 100000) g`)
	require.NoError(t, err)
	_, err = conn.Exec(ctx, "VACUUM (ANALYZE)")
	require.NoError(t, err)

	for _, path := range []string{"/api/v1/entities?limit=50", "/api/v1/users?limit=50"} {
		t.Run(path, func(t *testing.T) {
			key.get(t, path, http.StatusOK) // warms the credential cache: the page query comes first
			res, body := key.do(t, http.MethodGet, path, nil)
			require.Equal(t, http.StatusOK, res.StatusCode, body)
			counter.mu.Lock()
			id := res.Header.Get("X-Request-Id")
			require.NotEmpty(t, counter.sql[id], "the page query")
			sql, args := counter.sql[id][0], counter.args[id][0]
			counter.mu.Unlock()

			for range 10 { // the first five executions are always planned for their parameters
				rows, err := conn.Query(ctx, sql, args...)
				require.NoError(t, err)
				rows.Close()
				require.NoError(t, rows.Err())
			}
			var generic, custom int64
			require.NoError(t, conn.QueryRow(ctx, `SELECT generic_plans, custom_plans FROM pg_prepared_statements
				WHERE statement = $1`, sql).Scan(&generic, &custom))
			require.LessOrEqual(t, custom, int64(5), "planned anew for each execution after the fifth:\n%s", sql)
			require.GreaterOrEqual(t, generic, int64(5))
		})
	}
}
