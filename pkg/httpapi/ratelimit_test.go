package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/logging"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

// TestMain gives the limits and idempotency tests a real PostgreSQL cluster.
func TestMain(m *testing.M) { pgtest.Main(m) }

// testClock is a settable clock shared by a test and the stores it drives.
type testClock struct{ ns atomic.Int64 }

func newTestClock(t time.Time) *testClock {
	c := &testClock{}
	c.ns.Store(t.UnixNano())
	return c
}

func (c *testClock) Now() time.Time          { return time.Unix(0, c.ns.Load()) }
func (c *testClock) Advance(d time.Duration) { c.ns.Add(int64(d)) }

// replicaPool opens a pool of its own on dsn, as a separate server process would.
func replicaPool(t *testing.T, dsn string) *pgxpool.Pool {
	t.Helper()
	pool, err := pgxpool.New(context.Background(), dsn)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	return pool
}

// limitedStack is the platform middleware of one replica around the two limiters, in the
// order the server installs them, in front of a handler that counts what reaches it.
func limitedStack(l *postgres.RateLimiter, perMinute int, log *slog.Logger, reached *atomic.Int64) http.Handler {
	ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		reached.Add(1)
		w.WriteHeader(http.StatusNoContent)
	})
	return requestID(clientInfo(0)(RateLimit(l, perMinute, log)(AuthRateLimit(l, log)(ok))))
}

func send(t *testing.T, h http.Handler, method, path, ip string, hdr ...string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(method, path, nil)
	req.RemoteAddr = ip + ":40000"
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func headerInt(t *testing.T, res *http.Response, name string) int {
	t.Helper()
	v, err := strconv.Atoi(res.Header.Get(name))
	require.NoError(t, err, "%s: %q", name, res.Header.Get(name))
	return v
}

func decodeEnvelope(t *testing.T, res *http.Response) map[string]any {
	t.Helper()
	raw, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(raw, &m), string(raw))
	return m
}

var discard = slog.New(slog.NewTextHandler(io.Discard, nil))

func TestRateLimitBudgetExhaustion(t *testing.T) {
	t.Parallel()
	pool := pgtest.NewPool(t)
	var reached atomic.Int64
	h := limitedStack(postgres.NewRateLimiter(pool, newTestClock(time.Now()).Now), 3, discard, &reached)
	for i := range 3 {
		res := send(t, h, http.MethodGet, "/api/v1/things", "192.0.2.1", "Authorization", "Bearer key-a")
		require.Equal(t, http.StatusNoContent, res.StatusCode)
		require.Equal(t, "3", res.Header.Get("X-RateLimit-Limit"))
		require.Equal(t, 2-i, headerInt(t, res, "X-RateLimit-Remaining"))
		require.InDelta(t, 30, headerInt(t, res, "X-RateLimit-Reset"), 30, "seconds until the minute ends")
		require.Empty(t, res.Header.Get("Retry-After"))
	}
	res := send(t, h, http.MethodGet, "/api/v1/things", "192.0.2.1", "Authorization", "Bearer key-a")
	requireEnvelope(t, res, decodeEnvelope(t, res), http.StatusTooManyRequests, "rate_limited")
	require.Equal(t, "3", res.Header.Get("X-RateLimit-Limit"))
	require.Equal(t, "0", res.Header.Get("X-RateLimit-Remaining"))
	retry := headerInt(t, res, "Retry-After")
	require.GreaterOrEqual(t, retry, 1)
	require.LessOrEqual(t, retry, 60)
	require.Equal(t, int64(3), reached.Load(), "the refused request never reached the handler")
}

// TestRateLimitSharedAcrossReplicas runs two stacks, each with its own pool, on one
// database: a client alternating between them still gets one budget, not two.
func TestRateLimitSharedAcrossReplicas(t *testing.T) {
	t.Parallel()
	dsn := pgtest.NewDatabase(t)
	clock := newTestClock(time.Now())
	var reached atomic.Int64
	replicas := []http.Handler{
		limitedStack(postgres.NewRateLimiter(replicaPool(t, dsn), clock.Now), 4, discard, &reached),
		limitedStack(postgres.NewRateLimiter(replicaPool(t, dsn), clock.Now), 4, discard, &reached),
	}
	var statuses []int
	for i := range 6 {
		res := send(t, replicas[i%2], http.MethodPost, "/api/v1/things", "192.0.2.1", "X-Api-Key", "shared")
		statuses = append(statuses, res.StatusCode)
	}
	require.Equal(t, []int{204, 204, 204, 204, 429, 429}, statuses)
	require.Equal(t, int64(4), reached.Load())
}

func TestRateLimitSeparateBudgetsPerCredential(t *testing.T) {
	t.Parallel()
	pool := pgtest.NewPool(t)
	var reached atomic.Int64
	h := limitedStack(postgres.NewRateLimiter(pool, newTestClock(time.Now()).Now), 2, discard, &reached)
	if !t.Run("one credential spends its budget", func(t *testing.T) {
		for range 2 {
			require.Equal(t, 204, send(t, h, http.MethodGet, "/api/v1/things", "192.0.2.1", "Authorization", "Bearer key-a").StatusCode)
		}
		require.Equal(t, 429, send(t, h, http.MethodGet, "/api/v1/things", "192.0.2.1", "Authorization", "Bearer key-a").StatusCode)
	}) {
		t.FailNow()
	}
	// Same address, other credentials of every kind: fresh budgets.
	t.Run("another bearer token has its own budget", func(t *testing.T) {
		res := send(t, h, http.MethodGet, "/api/v1/things", "192.0.2.1", "Authorization", "Bearer key-b")
		require.Equal(t, 204, res.StatusCode)
		require.Equal(t, "1", res.Header.Get("X-RateLimit-Remaining"))
	})
	t.Run("an X-Api-Key has its own budget", func(t *testing.T) {
		require.Equal(t, 204, send(t, h, http.MethodGet, "/api/v1/things", "192.0.2.1", "X-Api-Key", "key-c").StatusCode)
	})
	t.Run("a session cookie has its own budget", func(t *testing.T) {
		require.Equal(t, 204, send(t, h, http.MethodGet, "/api/v1/things", "192.0.2.1", "Cookie", SessionCookieName+"=sess-d").StatusCode)
	})
	t.Run("an anonymous caller has the address's own budget", func(t *testing.T) {
		require.Equal(t, 204, send(t, h, http.MethodGet, "/api/v1/things", "192.0.2.1").StatusCode, "anonymous: the address's own budget")
	})
	t.Run("no raw credential is stored", func(t *testing.T) {
		var raw int
		require.NoError(t, pool.QueryRow(context.Background(),
			"SELECT count(*) FROM rate_limit_counters WHERE key LIKE '%key-%' OR key LIKE '%sess-%'").Scan(&raw))
		require.Zero(t, raw, "no raw credential is stored")
	})
}

func TestRateLimitAnonymousByIP(t *testing.T) {
	t.Parallel()
	pool := pgtest.NewPool(t)
	var reached atomic.Int64
	h := limitedStack(postgres.NewRateLimiter(pool, newTestClock(time.Now()).Now), 2, discard, &reached)
	for range 2 {
		require.Equal(t, 204, send(t, h, http.MethodGet, "/api/v1/things", "198.51.100.1").StatusCode)
	}
	require.Equal(t, 429, send(t, h, http.MethodGet, "/api/v1/things", "198.51.100.1").StatusCode)
	require.Equal(t, 204, send(t, h, http.MethodGet, "/api/v1/things", "198.51.100.2").StatusCode)
	var count int
	require.NoError(t, pool.QueryRow(context.Background(),
		"SELECT count FROM rate_limit_counters WHERE key = 'ip:198.51.100.1'").Scan(&count))
	require.Equal(t, 3, count)
}

func TestAuthRateLimitCountsOnlyAuthWrites(t *testing.T) {
	t.Parallel()
	pool := pgtest.NewPool(t)
	var reached atomic.Int64
	h := limitedStack(postgres.NewRateLimiter(pool, newTestClock(time.Now()).Now), 1000, discard, &reached)
	if !t.Run("ten attempts from one address pass, whatever the credential", func(t *testing.T) {
		for i := range 10 {
			// Each attempt with another made-up credential: the auth budget is per address.
			res := send(t, h, http.MethodPost, "/api/v1/auth/login", "203.0.113.9", "Authorization", "Bearer guess-"+strconv.Itoa(i))
			require.Equal(t, 204, res.StatusCode, "attempt %d", i+1)
		}
	}) {
		t.FailNow()
	}
	t.Run("the eleventh is refused until the window ends", func(t *testing.T) {
		res := send(t, h, http.MethodPost, "/api/v1/auth/login", "203.0.113.9", "Authorization", "Bearer guess-x")
		requireEnvelope(t, res, decodeEnvelope(t, res), http.StatusTooManyRequests, "rate_limited")
		retry := headerInt(t, res, "Retry-After")
		require.GreaterOrEqual(t, retry, 1)
		require.LessOrEqual(t, retry, 15*60)
		require.NotEmpty(t, res.Header.Get("X-RateLimit-Limit"), "the per-credential headers are still there")
	})

	// Reads under /auth/, writes elsewhere and other addresses are not counted.
	t.Run("a read under /auth/ is not counted", func(t *testing.T) {
		require.Equal(t, 204, send(t, h, http.MethodGet, "/api/v1/auth/me", "203.0.113.9").StatusCode)
	})
	t.Run("a write elsewhere is not counted", func(t *testing.T) {
		require.Equal(t, 204, send(t, h, http.MethodPost, "/api/v1/things", "203.0.113.9").StatusCode)
	})
	t.Run("another address has its own budget", func(t *testing.T) {
		require.Equal(t, 204, send(t, h, http.MethodPost, "/api/v1/auth/logout", "203.0.113.10").StatusCode)
	})
	t.Run("a signed-in user's own writes under /auth/ are not credential attempts", func(t *testing.T) {
		// Signing out, editing one's profile and changing one's password stay possible
		// from an address that used up its sign-in budget.
		require.Equal(t, 204, send(t, h, http.MethodPost, "/api/v1/auth/logout", "203.0.113.9").StatusCode)
		require.Equal(t, 204, send(t, h, http.MethodPatch, "/api/v1/auth/me", "203.0.113.9").StatusCode)
		require.Equal(t, 204, send(t, h, http.MethodPost, "/api/v1/auth/password", "203.0.113.9").StatusCode)
	})
	t.Run("every credential attempt counts", func(t *testing.T) {
		for _, path := range []string{"/api/v1/auth/register", "/api/v1/auth/password-reset", "/api/v1/auth/password-reset/confirm"} {
			require.Equal(t, 429, send(t, h, http.MethodPost, path, "203.0.113.9").StatusCode, path)
		}
		var count int
		require.NoError(t, pool.QueryRow(context.Background(),
			"SELECT count FROM rate_limit_counters WHERE key = 'auth:203.0.113.9'").Scan(&count))
		require.Equal(t, 14, count)
	})
}

func TestRateLimitWindowReset(t *testing.T) {
	t.Parallel()
	pool := pgtest.NewPool(t)
	clock := newTestClock(time.Now().Truncate(time.Minute).Add(10 * time.Second))
	var reached atomic.Int64
	h := limitedStack(postgres.NewRateLimiter(pool, clock.Now), 2, discard, &reached)
	for range 2 {
		require.Equal(t, 204, send(t, h, http.MethodGet, "/api/v1/things", "192.0.2.1", "X-Api-Key", "k").StatusCode)
	}
	require.Equal(t, 429, send(t, h, http.MethodGet, "/api/v1/things", "192.0.2.1", "X-Api-Key", "k").StatusCode)
	clock.Advance(45 * time.Second) // still the same minute
	require.Equal(t, 429, send(t, h, http.MethodGet, "/api/v1/things", "192.0.2.1", "X-Api-Key", "k").StatusCode)
	clock.Advance(10 * time.Second) // the next minute: a fresh window
	res := send(t, h, http.MethodGet, "/api/v1/things", "192.0.2.1", "X-Api-Key", "k")
	require.Equal(t, 204, res.StatusCode)
	require.Equal(t, "1", res.Header.Get("X-RateLimit-Remaining"))
}

// TestRateLimitFailsOpen: with the database gone, requests pass without the headers and
// one warning (not one per request) is logged.
func TestRateLimitFailsOpen(t *testing.T) {
	t.Parallel()
	pool := replicaPool(t, pgtest.NewDatabase(t))
	pool.Close()
	logs := &bytes.Buffer{}
	log := logging.New(logs, slog.LevelDebug)
	var reached atomic.Int64
	h := limitedStack(postgres.NewRateLimiter(pool, nil), 1, log, &reached)
	for range 3 {
		res := send(t, h, http.MethodPost, "/api/v1/auth/login", "192.0.2.1")
		require.Equal(t, 204, res.StatusCode)
		require.Empty(t, res.Header.Get("X-RateLimit-Limit"))
	}
	require.Equal(t, int64(3), reached.Load())
	require.Equal(t, 2, bytes.Count(logs.Bytes(), []byte("rate limiter unavailable")), "one warning per limiter: %s", logs)
}
