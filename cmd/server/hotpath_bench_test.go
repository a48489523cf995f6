package main

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

// In-process benchmarks of the request hot path: the real wiring (run) on a real database,
// called over loopback by a keep-alive client, as make bench does but in one process so
// that `go test -bench -cpuprofile` shows where the server's time goes. The client's share
// of the profile is the net/http client; read the server's frames (ServeHTTP and below).
//
//	go test ./cmd/server -run '^$' -bench HotPath -benchtime 5s -cpuprofile /tmp/cpu.out

// benchServer boots the server as the load benchmark runs it (no throttling budget, errors
// only in the log) and seeds an administrator, a few users and an API key.
func benchServer(b *testing.B) (ts *testServer, key string, userID string) {
	b.Helper()
	ts = &testServer{dsn: pgtest.NewDatabase(b), logs: &syncBuffer{}}
	ctx, cancel := context.WithCancel(context.Background())
	ready, done := make(chan string, 1), make(chan error, 1)
	go func() {
		done <- run(ctx, options{Environ: []string{
			"DATABASE_PROVIDER=postgres", "DATABASE_URL=" + ts.dsn, "NODE_ENV=test", "LOG_LEVEL=error",
			"MIGRATE_ON_START=true", "SHUTDOWN_TIMEOUT=5s", "RATE_LIMIT_PER_MINUTE=100000000",
		}, Stdout: ts.logs, Listen: "127.0.0.1:0", Ready: func(a string) { ready <- a }})
	}()
	select {
	case addr := <-ready:
		ts.url = "http://" + addr
	case err := <-done:
		cancel()
		b.Fatalf("server did not start: %v\n%s", err, ts.logs)
	}
	b.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			b.Errorf("server stopped with %v", err)
		}
	})
	admin := ts.admin(b)
	var u user
	for range 60 {
		u, _ = ts.newUser(b, "assessor")
	}
	return ts, ts.newAPIKey(b, admin), u.ID
}

func BenchmarkHotPath(b *testing.B) {
	ts, key, userID := benchServer(b)
	for _, c := range []struct {
		name, method, path, body string
		status                   int
	}{
		{"whoami", http.MethodGet, "/api/v1/auth/me", "", http.StatusOK},
		{"get-user", http.MethodGet, "/api/v1/users/" + userID, "", http.StatusOK},
		{"unread-count", http.MethodGet, "/api/v1/notifications/unread-count", "", http.StatusOK},
		{"list-users-50", http.MethodGet, "/api/v1/users?limit=50", "", http.StatusOK},
		{"create-invite", http.MethodPost, "/api/v1/admin/invites", `{"intendedRole":"assessee"}`, http.StatusCreated},
	} {
		b.Run(c.name, func(b *testing.B) {
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64, DisableCompression: true}}
			defer client.CloseIdleConnections()
			b.SetParallelism(4)
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					var body io.Reader
					if c.body != "" {
						body = strings.NewReader(c.body)
					}
					req, _ := http.NewRequest(c.method, ts.url+c.path, body)
					req.Header.Set("Authorization", "Bearer "+key)
					if c.body != "" {
						req.Header.Set("Content-Type", "application/json")
					}
					res, err := client.Do(req)
					if err != nil {
						b.Error(err)
						return
					}
					_, _ = io.Copy(io.Discard, res.Body)
					res.Body.Close()
					if res.StatusCode != c.status {
						b.Errorf("%s: %d", c.path, res.StatusCode)
						return
					}
				}
			})
		})
	}
}
