package postgres_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

// TestCredentialCacheListenerDrop: when the listening connection is cut, the cache stops
// serving and is flushed; once the listener is back it serves again.
func TestCredentialCacheListenerDrop(t *testing.T) {
	pool := pgtest.NewPool(t)
	db := postgres.New(pool, nil).WithCredentialCache(time.Minute)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go db.ListenChanges(ctx, slog.New(slog.DiscardHandler))
	enabled := db.CredentialCacheEnabledForTest
	require.Eventually(t, enabled, 10*time.Second, 10*time.Millisecond)
	p := &assess.Principal{User: assess.User{ID: "u_x"}, SessionID: "se_x"}
	db.CachePrincipalForTest("s:se_x", p)
	require.True(t, db.CachedForTest("s:se_x"))

	// Only this test's listener: the cluster is shared by every test package running at
	// once, and each test has a database of its own.
	var killed int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE query = 'LISTEN assay_credentials' AND datname = current_database()`).Scan(&killed))
	require.Equal(t, 1, killed)
	require.Eventually(t, func() bool {
		return !db.CachedForTest("s:se_x")
	}, 5*time.Second, 10*time.Millisecond, "the entry is gone once the listener dropped")
	require.Eventually(t, enabled, 10*time.Second, 10*time.Millisecond, "the listener reconnects")

	// Back on: a notification from another replica reaches the cache.
	db.CachePrincipalForTest("s:se_x", p)
	_, err := pool.Exec(ctx, "SELECT pg_notify('assay_credentials', 'session:se_x')")
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		return !db.CachedForTest("s:se_x")
	}, time.Second, 5*time.Millisecond)
}
