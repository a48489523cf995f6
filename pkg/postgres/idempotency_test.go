package postgres_test

import (
	"context"
	"crypto/sha256"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

const endpoint = "POST /api/v1/things"

func hashOf(s string) []byte {
	sum := sha256.Sum256([]byte(s))
	return sum[:]
}

// clockedIdempotencyStore is an idempotency store on a fresh database with a clock the
// test sets, at noon on 1 May 2026 to begin with; the pool reads the stored keys.
func clockedIdempotencyStore(t *testing.T) (*postgres.IdempotencyStore, *pgxpool.Pool, *fakeClock) {
	t.Helper()
	pool := pgtest.NewPool(t)
	clock := &fakeClock{now: time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)}
	return postgres.NewIdempotencyStore(pool, clock.Now), pool, clock
}

func TestIdempotencyStoreLifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := postgres.NewIdempotencyStore(pgtest.NewPool(t), nil)

	rec, started, err := s.Begin(ctx, "cred:a", endpoint, "k", hashOf("body"))
	require.NoError(t, err)
	require.True(t, started)
	require.Equal(t, hashOf("body"), rec.RequestHash)

	rec, started, err = s.Begin(ctx, "cred:a", endpoint, "k", hashOf("body"))
	require.NoError(t, err)
	require.False(t, started)
	require.False(t, rec.Completed, "the first request is still running")
	require.Equal(t, hashOf("body"), rec.RequestHash)

	headers := map[string]string{"Content-Type": "application/json; charset=utf-8", "Location": "/api/v1/things/th_1"}
	require.NoError(t, s.Complete(ctx, "cred:a", endpoint, "k", 201, headers, []byte(`{"id":"th_1"}`)))
	require.Error(t, s.Complete(ctx, "cred:a", endpoint, "k", 201, headers, nil), "completed only once")
	require.NoError(t, s.Abandon(ctx, "cred:a", endpoint, "k"), "abandoning a completed key is a no-op")

	rec, started, err = s.Begin(ctx, "cred:a", endpoint, "k", hashOf("other body"))
	require.NoError(t, err)
	require.False(t, started)
	require.True(t, rec.Completed)
	require.Equal(t, 201, rec.Status)
	require.Equal(t, headers, rec.Headers)
	require.JSONEq(t, `{"id":"th_1"}`, string(rec.Body))
	require.Equal(t, hashOf("body"), rec.RequestHash, "the caller compares hashes")

	// Scope and endpoint are part of the key.
	_, started, err = s.Begin(ctx, "cred:b", endpoint, "k", hashOf("body"))
	require.NoError(t, err)
	require.True(t, started)
	_, started, err = s.Begin(ctx, "cred:a", "POST /api/v1/others", "k", hashOf("body"))
	require.NoError(t, err)
	require.True(t, started)

	// An abandoned key can be claimed again.
	require.NoError(t, s.Abandon(ctx, "cred:b", endpoint, "k"))
	_, started, err = s.Begin(ctx, "cred:b", endpoint, "k", hashOf("new body"))
	require.NoError(t, err)
	require.True(t, started)

	require.Error(t, s.Complete(ctx, "cred:c", endpoint, "never-claimed", 201, nil, nil))
}

// TestIdempotencyStoreConcurrentBegin races many claimers on two pools: exactly one
// starts, everybody else sees its in-progress row.
func TestIdempotencyStoreConcurrentBegin(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := pgtest.NewDatabase(t)
	stores := []*postgres.IdempotencyStore{
		postgres.NewIdempotencyStore(openPool(t, dsn), nil),
		postgres.NewIdempotencyStore(openPool(t, dsn), nil),
	}
	const n = 16
	var mu sync.Mutex
	startedCount := 0
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			rec, started, err := stores[i%2].Begin(ctx, "cred:a", endpoint, "race", hashOf("body"))
			assert.NoError(t, err)
			mu.Lock()
			defer mu.Unlock()
			if started {
				startedCount++
			} else {
				assert.False(t, rec.Completed)
				assert.Equal(t, hashOf("body"), rec.RequestHash)
			}
		})
	}
	wg.Wait()
	require.Equal(t, 1, startedCount)
}

func TestIdempotencyStoreExpiryAndPurge(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, pool, clock := clockedIdempotencyStore(t)
	now := clock.Now()

	_, started, err := s.Begin(ctx, "cred:a", endpoint, "old", hashOf("body"))
	require.NoError(t, err)
	require.True(t, started)
	require.NoError(t, s.Complete(ctx, "cred:a", endpoint, "old", 201, nil, []byte("{}")))
	_, _, err = s.Begin(ctx, "cred:a", endpoint, "stuck", hashOf("body")) // never completed
	require.NoError(t, err)

	clock.Set(now.Add(24*time.Hour + time.Second))
	rec, started, err := s.Begin(ctx, "cred:a", endpoint, "old", hashOf("another body"))
	require.NoError(t, err)
	require.True(t, started, "a key older than 24 hours is as good as new")
	require.False(t, rec.Completed)

	_, _, err = s.Begin(ctx, "cred:a", endpoint, "fresh", hashOf("body"))
	require.NoError(t, err)
	n, err := postgres.New(pool, nil).PurgeIdempotencyKeys(ctx, clock.Now().Add(-24*time.Hour))
	require.NoError(t, err)
	require.Equal(t, int64(1), n, "only the stuck key is past its lifetime")
	var keys []string
	rows, err := pool.Query(ctx, "SELECT key FROM idempotency_keys ORDER BY key")
	require.NoError(t, err)
	for rows.Next() {
		var k string
		require.NoError(t, rows.Scan(&k))
		keys = append(keys, k)
	}
	require.NoError(t, rows.Err())
	require.Equal(t, []string{"fresh", "old"}, keys)
}

// TestIdempotencyStoreTakesOverAbandonedKey: a request that died mid-way (its process was
// killed) must not block retries with its key for a day.
func TestIdempotencyStoreTakesOverAbandonedKey(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _, clock := clockedIdempotencyStore(t)
	now := clock.Now()

	_, started, err := s.Begin(ctx, "cred:a", endpoint, "k", hashOf("body"))
	require.NoError(t, err)
	require.True(t, started)

	clock.Set(now.Add(time.Minute))
	rec, started, err := s.Begin(ctx, "cred:a", endpoint, "k", hashOf("body"))
	require.NoError(t, err)
	require.False(t, started, "a minute later the first request may still be running")
	require.False(t, rec.Completed)

	clock.Set(now.Add(5*time.Minute + time.Second))
	_, started, err = s.Begin(ctx, "cred:a", endpoint, "k", hashOf("body"))
	require.NoError(t, err)
	require.True(t, started, "after the in-progress timeout the retry takes the key over")
	require.NoError(t, s.Complete(ctx, "cred:a", endpoint, "k", 201, nil, []byte("{}")))

	clock.Set(now.Add(time.Hour))
	rec, started, err = s.Begin(ctx, "cred:a", endpoint, "k", hashOf("body"))
	require.NoError(t, err)
	require.False(t, started, "a completed key is kept for its lifetime")
	require.True(t, rec.Completed)
}
