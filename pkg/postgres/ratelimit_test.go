package postgres_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

func TestRateLimiterFixedWindows(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Date(2026, 5, 1, 12, 0, 42, 0, time.UTC)
	l := postgres.NewRateLimiter(pgtest.NewPool(t), func() time.Time { return now })

	for i := 1; i <= 3; i++ {
		d, err := l.Hit(ctx, "cred:a", 2, time.Minute)
		require.NoError(t, err)
		require.Equal(t, i, d.Count)
		require.Equal(t, 2, d.Limit)
		require.Equal(t, max(2-i, 0), d.Remaining)
		require.Equal(t, i <= 2, d.Allowed)
		require.Equal(t, time.Date(2026, 5, 1, 12, 1, 0, 0, time.UTC), d.Reset, "windows are aligned to the minute")
	}
	d, err := l.Hit(ctx, "cred:b", 2, time.Minute)
	require.NoError(t, err)
	require.Equal(t, 1, d.Count, "another key has its own budget")

	now = now.Add(18 * time.Second) // 12:01:00, the next window
	d, err = l.Hit(ctx, "cred:a", 2, time.Minute)
	require.NoError(t, err)
	require.True(t, d.Allowed)
	require.Equal(t, 1, d.Count)

	d, err = l.Hit(ctx, "auth:192.0.2.1", 10, 15*time.Minute)
	require.NoError(t, err)
	require.Equal(t, time.Date(2026, 5, 1, 12, 15, 0, 0, time.UTC), d.Reset)

	_, err = l.Hit(ctx, "cred:a", 0, time.Minute)
	require.Error(t, err)
}

// TestRateLimiterSharedAndExact hits one key from two pools (two replicas) at once: every
// hit is counted exactly once, so exactly limit of them are allowed.
func TestRateLimiterSharedAndExact(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := pgtest.NewDatabase(t)
	now := time.Now()
	clock := func() time.Time { return now }
	limiters := []*postgres.RateLimiter{
		postgres.NewRateLimiter(openPool(t, dsn), clock),
		postgres.NewRateLimiter(openPool(t, dsn), clock),
	}
	const hits, limit = 60, 25
	var mu sync.Mutex
	counts := map[int]bool{}
	allowed := 0
	var wg sync.WaitGroup
	for i := range hits {
		wg.Go(func() {
			d, err := limiters[i%2].Hit(ctx, "cred:shared", limit, time.Minute)
			assert.NoError(t, err)
			mu.Lock()
			defer mu.Unlock()
			counts[d.Count] = true
			if d.Allowed {
				allowed++
			}
		})
	}
	wg.Wait()
	require.Len(t, counts, hits, "every hit got its own count")
	require.Equal(t, limit, allowed)
}

func TestPurgeRateLimitWindowsAndUnloggedTable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewPool(t)
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	clock := now
	l := postgres.NewRateLimiter(pool, func() time.Time { return clock })
	for _, at := range []time.Time{now.Add(-3 * time.Hour), now.Add(-61 * time.Minute), now.Add(-30 * time.Minute), now} {
		clock = at
		_, err := l.Hit(ctx, "cred:a", 10, time.Minute)
		require.NoError(t, err)
	}
	n, err := postgres.New(pool, nil).PurgeRateLimitWindows(ctx, now.Add(-time.Hour))
	require.NoError(t, err)
	require.Equal(t, int64(2), n)
	var left int
	require.NoError(t, pool.QueryRow(ctx, "SELECT count(*) FROM rate_limit_counters").Scan(&left))
	require.Equal(t, 2, left)

	var persistence string
	require.NoError(t, pool.QueryRow(ctx,
		"SELECT relpersistence::text FROM pg_class WHERE relname = 'rate_limit_counters'").Scan(&persistence))
	require.Equal(t, "u", persistence, "counters skip the WAL")
}
