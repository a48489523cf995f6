package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

// TestMain runs the tests against a real cluster, then checks the answers every test
// server gave against the API description (live_answers_test.go).
func TestMain(m *testing.M) {
	code := pgtest.Run(m)
	if checkLiveAnswers() != 0 {
		code = 1
	}
	os.Exit(code)
}

// syncBuffer collects the server's log output safely across goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type testServer struct {
	url  string
	dsn  string
	logs *syncBuffer

	// The fixtures' state (fixtures_test.go): the first administrator's session, set up
	// on first use, and a sequence for generated names.
	fixtures sync.Mutex
	root     *apiClient
	seq      atomic.Int64
}

// startServer boots the real wiring on a random port against a fresh database and stops
// it (checking for a clean shutdown) when the test ends.
func startServer(t testing.TB, env ...string) *testServer {
	t.Helper()
	return startServerOn(t, pgtest.NewDatabase(t), env...)
}

// startServerOn is startServer on a given database.
func startServerOn(t testing.TB, dsn string, env ...string) *testServer {
	t.Helper()
	return startTracedServer(t, dsn, nil, env...)
}

// startTracedServer is startServerOn with a tracer observing every database query.
func startTracedServer(t testing.TB, dsn string, tracer pgx.QueryTracer, env ...string) *testServer {
	t.Helper()
	return startServerWith(t, dsn, options{QueryTracer: tracer}, env...)
}

// startServerWith is startServerOn with the options a test sets (QueryTracer,
// StarterStandards); the environment, log, listener and observer are the harness's.
func startServerWith(t testing.TB, dsn string, opts options, env ...string) *testServer {
	t.Helper()
	ts := &testServer{dsn: dsn, logs: &syncBuffer{}}
	environ := append([]string{
		"DATABASE_PROVIDER=postgres", "DATABASE_URL=" + ts.dsn, "NODE_ENV=test", "LOG_LEVEL=debug",
		"MIGRATE_ON_START=true", "SHUTDOWN_TIMEOUT=5s",
	}, env...)
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	opts.Environ, opts.Stdout, opts.Listen, opts.Observer = environ, ts.logs, "127.0.0.1:0", liveAnswers
	opts.Ready = func(a string) { ready <- a }
	go func() {
		done <- run(ctx, opts)
	}()
	select {
	case addr := <-ready:
		ts.url = "http://" + addr
	case err := <-done:
		cancel()
		t.Fatalf("server did not start: %v\n%s", err, ts.logs)
	case <-time.After(60 * time.Second):
		cancel()
		t.Fatal("server did not start within 60s")
	}
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			require.NoError(t, err)
		case <-time.After(20 * time.Second):
			t.Error("server did not stop within 20s")
		}
	})
	return ts
}

func (ts *testServer) request(t *testing.T, method, path, body string, hdr ...string) (*http.Response, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, ts.url+path, strings.NewReader(body))
	require.NoError(t, err)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	var m map[string]any
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		require.NoError(t, json.Unmarshal(raw, &m), string(raw))
	}
	return res, m
}

func (ts *testServer) createUser(t *testing.T) {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), ts.dsn)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	_, err = conn.Exec(context.Background(), `INSERT INTO users (id, username, email) VALUES ('u_1', 'admin', 'admin@example.com')`)
	require.NoError(t, err)
}

func requireEnvelope(t testing.TB, res *http.Response, body map[string]any, status int, code string) {
	t.Helper()
	require.Equal(t, status, res.StatusCode, body)
	require.Equal(t, "application/json; charset=utf-8", res.Header.Get("Content-Type"))
	require.Equal(t, code, body["error"])
	require.NotEmpty(t, body["message"])
	require.NotEmpty(t, res.Header.Get("X-Request-Id"))
	require.Equal(t, res.Header.Get("X-Request-Id"), body["requestId"])
}

func TestServerEndToEnd(t *testing.T) {
	t.Parallel()
	ts := startServer(t)

	t.Run("health reports status, version, uptime, database and storage", func(t *testing.T) {
		res, body := ts.request(t, "GET", "/api/health", "")
		require.Equal(t, 200, res.StatusCode)
		for _, k := range []string{"status", "version", "uptime", "database", "storage"} {
			require.Contains(t, body, k)
		}
		require.Equal(t, "ok", body["status"])
	})

	// Before setup: every other API request points to /setup, echoing the client's id.
	t.Run("before setup the API points to setup, echoing the request id", func(t *testing.T) {
		res, body := ts.request(t, "GET", "/api/v1/assessments", "", "X-Request-Id", "client-req-42")
		requireEnvelope(t, res, body, 503, "setup_required")
		require.Equal(t, "client-req-42", res.Header.Get("X-Request-Id"))
	})
	t.Run("before setup the setup status says so", func(t *testing.T) {
		res, body := ts.request(t, "GET", "/api/v1/setup/status", "")
		require.Equal(t, 200, res.StatusCode)
		require.Equal(t, false, body["setupComplete"])
	})
	t.Run("before setup the API description is served", func(t *testing.T) {
		res, body := ts.request(t, "GET", "/api/v1/openapi.json", "")
		require.Equal(t, 200, res.StatusCode)
		require.Equal(t, "3.1.0", body["openapi"])
	})
	t.Run("the log line of a request carries its id", func(t *testing.T) {
		require.Contains(t, ts.logs.String(), `"request_id":"client-req-42"`)
	})

	step(t, "an account exists", func(t *testing.T) { ts.createUser(t) })
	for _, c := range []struct {
		name, method, path, body string
		status                   int
		code                     string
	}{
		{"an unknown API route is not found", "GET", "/api/v1/no-such-thing", "", 404, "not_found"},
		{"health with a trailing slash is not found", "GET", "/api/health/", "", 404, "not_found"},
		{"a wrong method is not allowed", "POST", "/api/health", "{}", 405, "method_not_allowed"},
		{"an oversized body is refused", "POST", "/api/v1/setup/status", strings.Repeat("x", 2<<20), 413, "payload_too_large"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, body := ts.request(t, c.method, c.path, c.body)
			requireEnvelope(t, res, body, c.status, c.code)
		})
	}
	t.Run("with an account the setup is complete", func(t *testing.T) {
		res, body := ts.request(t, "GET", "/api/v1/setup/status", "")
		require.Equal(t, 200, res.StatusCode)
		require.Equal(t, true, body["setupComplete"])
	})

	t.Run("non-API paths are the web application", func(t *testing.T) {
		res, _ := ts.request(t, "GET", "/some/ui/page", "")
		require.Contains(t, []int{200, 503}, res.StatusCode) // 503 only when the UI was not built
		require.Contains(t, res.Header.Get("Content-Security-Policy"), "default-src 'self'")
	})
}

func TestServerMetrics(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "METRICS_ENABLED=true", "METRICS_TOKEN=scrape-token-1234567", "METRICS_PREFIX=tst_")
	ts.request(t, "GET", "/api/health", "")

	t.Run("without the token metrics are refused", func(t *testing.T) {
		res, body := ts.request(t, "GET", "/metrics", "")
		require.Equal(t, 401, res.StatusCode, body)
	})
	t.Run("with a wrong token metrics are refused", func(t *testing.T) {
		res, _ := ts.request(t, "GET", "/metrics", "", "Authorization", "Bearer wrong")
		require.Equal(t, 401, res.StatusCode)
	})
	t.Run("with the token metrics cover HTTP, the pool and the runtime", func(t *testing.T) {
		req, _ := http.NewRequest("GET", ts.url+"/metrics", nil)
		req.Header.Set("Authorization", "Bearer scrape-token-1234567")
		r, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer r.Body.Close()
		text, _ := io.ReadAll(r.Body)
		require.Equal(t, 200, r.StatusCode)
		for _, want := range []string{
			`tst_http_requests_total{method="GET",route="/api/health",status_code="200"}`,
			"tst_http_request_duration_seconds_bucket", "tst_db_pool_max_connections", "tst_go_goroutines",
		} {
			require.Contains(t, string(text), want)
		}
	})
}

func TestServerMetricsDisabled(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	ts.createUser(t)
	res, body := ts.request(t, "GET", "/metrics", "")
	requireEnvelope(t, res, body, 404, "not_found")
}

func TestServerRefusesBadConfig(t *testing.T) {
	t.Parallel()
	err := run(context.Background(), options{Environ: []string{"PORT=abc", "LOG_LEVEL=loud"}, Stdout: io.Discard})
	require.Error(t, err)
	require.Contains(t, err.Error(), "PORT")
	require.Contains(t, err.Error(), "LOG_LEVEL")
}

func TestServerGeneratesAndKeepsJWTSecret(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	conn, err := pgx.Connect(context.Background(), ts.dsn)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	var secret string
	require.NoError(t, conn.QueryRow(context.Background(), "SELECT value FROM app_config WHERE key = 'jwt_secret'").Scan(&secret))
	require.GreaterOrEqual(t, len(secret), 64)
	require.NotContains(t, ts.logs.String(), secret)
}

func TestServerRefusesRequireEncryptionWithoutKey(t *testing.T) {
	t.Parallel()
	err := run(context.Background(), options{Environ: []string{"REQUIRE_ENCRYPTION=true"}, Stdout: io.Discard})
	require.ErrorContains(t, err, "REQUIRE_ENCRYPTION")
	require.ErrorContains(t, err, "MASTER_ENCRYPTION_KEY")
}

// TestServerStartsWithWrongMasterKey: a lost key must not take the service down; the
// records it cannot open are refused, and the operator is told at start.
func TestServerStartsWithWrongMasterKey(t *testing.T) {
	t.Parallel()
	first := startServer(t, "MASTER_ENCRYPTION_KEY="+strings.Repeat("1", 64))
	t.Run("the first start enables encryption at rest", func(t *testing.T) {
		res, _ := first.request(t, "GET", "/api/health", "")
		require.Equal(t, 200, res.StatusCode)
		require.Contains(t, first.logs.String(), "encryption at rest enabled")
		first.admin(t)
	})

	again := startServerOn(t, first.dsn, "MASTER_ENCRYPTION_KEY="+strings.Repeat("2", 64))
	t.Run("a start with another key serves and says what is unavailable", func(t *testing.T) {
		res, _ := again.request(t, "GET", "/api/health", "")
		require.Equal(t, 200, res.StatusCode)
		logs := again.logs.String()
		require.Contains(t, logs, "cannot open some encryption key versions")
		require.Contains(t, logs, "sign-in is unavailable until the master key is restored")
	})
	t.Run("a sign-in says why it cannot start a session instead of setting a cookie nothing accepts", func(t *testing.T) {
		res, body := again.request(t, "POST", "/api/v1/auth/login", `{"username":"admin","password":"correct horse battery"}`)
		require.Equal(t, http.StatusServiceUnavailable, res.StatusCode, "%v", body)
		require.Equal(t, "encryption_key_unavailable", body["error"])
		require.Contains(t, body["message"], "MASTER_ENCRYPTION_KEY")
		require.Empty(t, res.Header.Values("Set-Cookie"))
	})
}

// TestServerMetricsOfInProcessWorkers: a server running the workers exports their job and
// delivery metrics on its own /metrics.
func TestServerMetricsOfInProcessWorkers(t *testing.T) {
	t.Parallel()
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	t.Cleanup(receiver.Close)
	ts := startServer(t, "METRICS_ENABLED=true", "METRICS_PREFIX=tst_", "RUN_WORKERS=true", "OUTBOUND_ALLOW_NETWORKS=127.0.0.1/32",
		"METRICS_DOMAIN_REFRESH_INTERVAL=1")
	admin := ts.admin(t)
	body := admin.post(t, "/api/v1/admin/webhooks", `{"name":"r","url":"`+receiver.URL+`","eventTypes":["role.*"]}`, 201)
	admin.post(t, "/api/v1/admin/webhooks/"+body["id"].(string)+"/test", nil, 202)
	execSQL(t, ts, `INSERT INTO entities (id, name, entity_type) VALUES ('en_01m8gzzzzzzzzzzzzzzzzzzzzz', 'Shop', 'product')`)
	execSQL(t, ts, `INSERT INTO assessments (id, title, entity_id) VALUES ('as_01m8gzzzzzzzzzzzzzzzzzzzzz', 'Shop review', 'en_01m8gzzzzzzzzzzzzzzzzzzzzz')`)

	want := []string{
		`tst_jobs_total{kind="delivery.webhook",outcome="completed"} 1`,
		`tst_deliveries_total{channel="webhook",outcome="succeeded"} 1`,
		`tst_delivery_duration_seconds_count{channel="webhook"} 1`,
		// The domain gauges, refreshed every second by the leader's job (issue 25 item 5).
		`tst_users{active="true"} 1`,
		`tst_assessments{state="new"} 1`,
		`tst_assessments{state="complete"} 0`,
		`tst_evidence{state="in_review"} 0`,
		`tst_attestations{state="sealed"} 0`,
		`tst_deliveries_pending{channel="webhook"} 0`,
		`tst_domain_metrics_read_error 0`,
	}
	require.Eventually(t, func() bool {
		r, err := http.Get(ts.url + "/metrics")
		if err != nil {
			return false
		}
		defer r.Body.Close()
		text, _ := io.ReadAll(r.Body)
		for _, w := range want {
			if !strings.Contains(string(text), w) {
				return false
			}
		}
		return true
	}, 15*time.Second, 100*time.Millisecond, "job and delivery metrics on /metrics")
}

// execSQL runs SQL against the server's database, for states the API cannot reach quickly.
func execSQL(t testing.TB, ts *testServer, sql string, args ...any) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, ts.dsn)
	require.NoError(t, err)
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql, args...)
	require.NoError(t, err)
}
