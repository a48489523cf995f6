package postgres

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/assay-dev/assay/pkg/assess"
)

// BatchedRateLimiter implements assess.RateLimiter without a database write per request.
// Each server counts hits locally and adds them to the shared counters
// (rate_limit_counters) in one statement every flush interval, reading back the shared
// counts; a budget nearing its end (the last tenth, or any budget of at most 20) is
// counted synchronously, one upsert per hit, as RateLimiter does.
//
// With one server the counts are exact. With several, a server's view of the shared count
// lags by what the others counted since their last flush and its last read; each server
// reconciles (counts synchronously) once it has taken a quarter of the budget it saw
// remaining, and counts the last tenth synchronously, so the overshoot is at most what
// the other servers took locally since their last reconciliation: usually little, at
// worst a quarter of the budget per other server when their views are stale (see
// docs/architecture.md, "Rate limits").
type BatchedRateLimiter struct {
	exact *RateLimiter
	every time.Duration
	log   *slog.Logger

	mu      sync.Mutex
	windows map[windowKey]*localWindow
}

type windowKey struct {
	key   string
	start time.Time
}

// localWindow is one key's window as this server sees it: the shared count when last
// read, hits being written now, and hits not yet written.
type localWindow struct {
	known, inflight, pending int
	window                   time.Duration
}

func (w *localWindow) estimate() int { return w.known + w.inflight + w.pending }

// NewBatchedRateLimiter returns a limiter on pool flushing every interval once Run runs.
func NewBatchedRateLimiter(pool *pgxpool.Pool, now func() time.Time, every time.Duration, log *slog.Logger) *BatchedRateLimiter {
	if log == nil {
		log = slog.Default()
	}
	return &BatchedRateLimiter{exact: NewRateLimiter(pool, now), every: every, log: log, windows: map[windowKey]*localWindow{}}
}

// syncMargin is how close to the end of its budget a key is counted synchronously.
func syncMargin(limit int) int {
	if limit <= 20 {
		return limit
	}
	return max(limit/10, 1)
}

// local reports whether a hit may be counted locally: the key is far from the end of its
// budget as this server last saw it, and this server has not yet taken a quarter of what
// remained then (past that, it reconciles first, so servers sharing a key converge on
// the shared count long before the budget ends).
func (b *BatchedRateLimiter) local(w *localWindow, limit int) bool {
	remaining := limit - w.known - w.inflight
	return remaining-w.pending > syncMargin(limit) && w.pending < remaining/4
}

// Hit implements assess.RateLimiter.
func (b *BatchedRateLimiter) Hit(ctx context.Context, key string, limit int, window time.Duration) (assess.RateDecision, error) {
	return b.HitWithin(ctx, key, limit, window, 0)
}

// HitWithin is Hit with the database's answer awaited at most timeout (0: as long as ctx
// allows). Most hits are counted in memory and need no timer at all.
func (b *BatchedRateLimiter) HitWithin(ctx context.Context, key string, limit int, window, timeout time.Duration) (assess.RateDecision, error) {
	if window <= 0 || limit <= 0 {
		return assess.RateDecision{}, errors.New("rate limit: window and limit must be positive")
	}
	start := b.exact.now().UTC().Truncate(window)
	wk := windowKey{key, start}
	b.mu.Lock()
	w := b.windows[wk]
	if w != nil && b.local(w, limit) {
		w.pending++
		count := w.estimate()
		b.mu.Unlock()
		return decision(count, limit, start, window), nil
	}
	if w == nil { // first hit of this window here: learn the shared count
		w = &localWindow{window: window}
		b.windows[wk] = w
	}
	n := w.pending + 1
	w.pending, w.inflight = 0, w.inflight+n
	b.mu.Unlock()

	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	count, err := b.exact.add(ctx, key, start, n)
	b.mu.Lock()
	defer b.mu.Unlock()
	w.inflight -= n
	if err != nil {
		w.pending += n - 1 // this hit is not counted; the earlier ones are written later
		return assess.RateDecision{}, err
	}
	w.known = max(w.known, count)
	return decision(w.estimate(), limit, start, window), nil
}

func decision(count, limit int, start time.Time, window time.Duration) assess.RateDecision {
	return assess.RateDecision{Count: count, Limit: limit, Remaining: max(limit-count, 0),
		Reset: start.Add(window), Allowed: count <= limit}
}

// Run flushes the local counts every interval until ctx ends, then once more.
func (b *BatchedRateLimiter) Run(ctx context.Context) {
	t := time.NewTicker(b.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
			defer cancel()
			b.flush(fctx)
			return
		case <-t.C:
			b.flush(ctx)
		}
	}
}

// flush writes every pending count in one statement and reads back the shared counts;
// windows that ended are forgotten.
func (b *BatchedRateLimiter) flush(ctx context.Context) {
	now := b.exact.now().UTC()
	b.mu.Lock()
	var keys []string
	var starts []time.Time
	var ns []int
	taken := map[windowKey]int{}
	for wk, w := range b.windows {
		if !wk.start.Add(w.window).After(now) && w.pending == 0 && w.inflight == 0 {
			delete(b.windows, wk)
			continue
		}
		if w.pending > 0 {
			keys, starts, ns = append(keys, wk.key), append(starts, wk.start), append(ns, w.pending)
			taken[wk] = w.pending
			w.inflight += w.pending
			w.pending = 0
		}
	}
	b.mu.Unlock()
	if len(keys) == 0 {
		return
	}
	counts, err := b.exact.addMany(ctx, keys, starts, ns)
	b.mu.Lock()
	defer b.mu.Unlock()
	for wk, n := range taken {
		w := b.windows[wk]
		w.inflight -= n
		if err != nil {
			w.pending += n // written at the next flush
			continue
		}
		w.known = max(w.known, counts[wk])
	}
	if err != nil {
		b.log.WarnContext(ctx, "rate limiter: flush failed, retrying at the next interval", slog.String("error", err.Error()))
	}
}

// add counts n hits of key in the window starting at start and returns the shared count.
func (l *RateLimiter) add(ctx context.Context, key string, start time.Time, n int) (int, error) {
	var count int
	err := l.pool.QueryRow(ctx, `INSERT INTO rate_limit_counters (key, window_start, count) VALUES ($1, $2, $3)
		ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limit_counters.count + EXCLUDED.count
		RETURNING count`, key, start, n).Scan(&count)
	if err != nil {
		return 0, fmt.Errorf("rate limit: count requests: %w", err)
	}
	return count, nil
}

// addMany is add for many windows in one statement.
func (l *RateLimiter) addMany(ctx context.Context, keys []string, starts []time.Time, ns []int) (map[windowKey]int, error) {
	rows, err := l.pool.Query(ctx, `INSERT INTO rate_limit_counters (key, window_start, count)
		SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::int[])
		ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limit_counters.count + EXCLUDED.count
		RETURNING key, window_start, count`, keys, starts, ns)
	if err != nil {
		return nil, fmt.Errorf("rate limit: flush: %w", err)
	}
	defer rows.Close()
	out := make(map[windowKey]int, len(keys))
	for rows.Next() {
		var k string
		var s time.Time
		var c int
		if err := rows.Scan(&k, &s, &c); err != nil {
			return nil, err
		}
		out[windowKey{k, s.UTC()}] = c
	}
	return out, rows.Err()
}

var _ assess.RateLimiter = (*BatchedRateLimiter)(nil)
