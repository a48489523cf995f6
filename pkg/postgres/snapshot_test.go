package postgres_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

// TestSnapshotReadsOneSnapshot: the statements of a snapshot read, its first carrying the
// BEGIN and its last batch the COMMIT, see the database as it was at the first of them —
// not a row committed by another connection in between — in a transaction that refuses
// writes; whatever the first statement is, and however the read ends (End, or an error and
// Close), the connection goes back to the pool outside any transaction.
func TestSnapshotReadsOneSnapshot(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := openPool(t, pgtest.NewEmptyDatabase(t))
	db := postgres.New(pool, nil)
	_, err := pool.Exec(ctx, `CREATE TABLE snap (n int); INSERT INTO snap VALUES (1)`)
	require.NoError(t, err)
	count := func(q postgres.Querier) int {
		var n int
		require.NoError(t, q.QueryRow(ctx, `SELECT count(*) FROM snap`).Scan(&n))
		return n
	}
	insert := func() {
		_, err := pool.Exec(ctx, `INSERT INTO snap VALUES (2)`)
		require.NoError(t, err)
	}
	idleInTransaction := func() int {
		var n int
		require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND state LIKE 'idle in transaction%'`).Scan(&n))
		return n
	}

	// Query first (as a page), then End with the last reads.
	snap, err := db.Pool.Snapshot(ctx)
	require.NoError(t, err)
	rows, err := snap.Query(ctx, `SELECT n FROM snap`)
	require.NoError(t, err)
	ns, err := pgx.CollectRows(rows, pgx.RowTo[int])
	require.NoError(t, err)
	require.Equal(t, []int{1}, ns)
	insert()
	require.Equal(t, 1, count(snap), "a row committed after the first statement is not seen")
	var b pgx.Batch
	var later int
	var readOnly, isolation string
	b.Queue(`SELECT count(*), current_setting('transaction_read_only'), current_setting('transaction_isolation') FROM snap`).
		QueryRow(func(r pgx.Row) error { return r.Scan(&later, &readOnly, &isolation) })
	require.NoError(t, snap.End(ctx, &b).Close())
	require.Equal(t, 1, later)
	require.Equal(t, "on", readOnly)
	require.Equal(t, "repeatable read", isolation)
	snap.Close(ctx)
	require.Equal(t, 2, count(db.Pool), "after the snapshot, the row committed is there")
	require.Zero(t, idleInTransaction())

	// Exec first: a write is refused, and Close ends the failed transaction.
	snap, err = db.Pool.Snapshot(ctx)
	require.NoError(t, err)
	_, err = snap.Exec(ctx, `INSERT INTO snap VALUES (3)`)
	require.ErrorContains(t, err, "read-only transaction")
	snap.Close(ctx)
	require.Zero(t, idleInTransaction())

	// A batch first, a failing statement after it, no End: Close rolls back.
	snap, err = db.Pool.Snapshot(ctx)
	require.NoError(t, err)
	var first int
	b = pgx.Batch{}
	b.Queue(`SELECT count(*) FROM snap`).QueryRow(func(r pgx.Row) error { return r.Scan(&first) })
	require.NoError(t, snap.SendBatch(ctx, &b).Close())
	require.Equal(t, 2, first)
	insert()
	require.Error(t, snap.QueryRow(ctx, `SELECT 1 / (count(*) - count(*)) FROM snap`).Scan(new(int)))
	snap.Close(ctx)
	require.Zero(t, idleInTransaction())

	// Nothing sent: Close only releases.
	snap, err = db.Pool.Snapshot(ctx)
	require.NoError(t, err)
	snap.Close(ctx)
	require.Equal(t, 3, count(db.Pool))
	require.Zero(t, idleInTransaction())
}
