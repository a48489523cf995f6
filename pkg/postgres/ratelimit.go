package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/assay-dev/assay/pkg/assess"
)

// RateLimiter implements assess.RateLimiter with fixed windows counted in the UNLOGGED
// table rate_limit_counters, so every replica on the database shares one budget per key.
type RateLimiter struct {
	pool *pgxpool.Pool
	now  func() time.Time
}

// NewRateLimiter returns a limiter on pool. now is the clock (time.Now when nil).
func NewRateLimiter(pool *pgxpool.Pool, now func() time.Time) *RateLimiter {
	if now == nil {
		now = time.Now
	}
	return &RateLimiter{pool: pool, now: now}
}

// Hit implements assess.RateLimiter. Windows are aligned to multiples of their size
// (a one-minute window starts on the minute), so every replica computes the same window
// for the same instant; one upsert both counts the request and reads the new count.
func (l *RateLimiter) Hit(ctx context.Context, key string, limit int, window time.Duration) (assess.RateDecision, error) {
	if window <= 0 || limit <= 0 {
		return assess.RateDecision{}, errors.New("rate limit: window and limit must be positive")
	}
	start := l.now().UTC().Truncate(window)
	var count int
	err := l.pool.QueryRow(ctx, `INSERT INTO rate_limit_counters (key, window_start, count) VALUES ($1, $2, 1)
		ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limit_counters.count + 1
		RETURNING count`, key, start).Scan(&count)
	if err != nil {
		return assess.RateDecision{}, fmt.Errorf("rate limit: count request: %w", err)
	}
	return assess.RateDecision{
		Count: count, Limit: limit, Remaining: max(limit-count, 0),
		Reset: start.Add(window), Allowed: count <= limit,
	}, nil
}

// PurgeRateLimitWindows implements assess.LimitsMaintenance.
func (db *DB) PurgeRateLimitWindows(ctx context.Context, olderThan time.Time) (int64, error) {
	tag, err := db.Pool.Exec(ctx, "DELETE FROM rate_limit_counters WHERE window_start < $1", olderThan)
	if err != nil {
		return 0, fmt.Errorf("purge rate-limit windows: %w", err)
	}
	return tag.RowsAffected(), nil
}

var _ assess.RateLimiter = (*RateLimiter)(nil)
