package main

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/logging"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

// queryCounter counts the database round trips of each request, by request id: a query,
// or a batch of statements sent together (pgx.Batch), which counts once and lists its
// statements.
type queryCounter struct {
	mu     sync.Mutex
	counts map[string]int
	sql    map[string][]string
}

func (c *queryCounter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, data pgx.TraceQueryStartData) context.Context {
	if id := logging.RequestID(ctx); id != "" {
		c.mu.Lock()
		c.counts[id]++
		c.sql[id] = append(c.sql[id], data.SQL)
		c.mu.Unlock()
	}
	return ctx
}

func (c *queryCounter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

func (c *queryCounter) TraceBatchStart(ctx context.Context, _ *pgx.Conn, data pgx.TraceBatchStartData) context.Context {
	if id := logging.RequestID(ctx); id != "" {
		var sql []string
		for _, q := range data.Batch.QueuedQueries {
			sql = append(sql, q.SQL)
		}
		c.mu.Lock()
		c.counts[id]++
		c.sql[id] = append(c.sql[id], "batch of "+strconv.Itoa(len(sql))+":\n"+strings.Join(sql, "\n;\n"))
		c.mu.Unlock()
	}
	return ctx
}

func (c *queryCounter) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}

func (c *queryCounter) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}

// TestHotPathQueries: with a warm credential cache, an authenticated read issues only its
// own queries — none for the credential, the rate limit or the setup state — and a list
// issues one query whatever its length (no N+1).
func TestHotPathQueries(t *testing.T) {
	t.Parallel()
	counter := &queryCounter{counts: map[string]int{}, sql: map[string][]string{}}
	ts := startTracedServer(t, pgtest.NewDatabase(t), counter)
	admin := ts.admin(t)
	for range 5 {
		ts.newUser(t, "assessor")
	}
	u, _ := ts.newUser(t, "assessor")
	cookie := admin
	key := ts.bearerClient(ts.newAPIKey(t, admin))

	for _, c := range []struct {
		name    string
		client  *apiClient
		path    string
		queries int
	}{
		{"who am I with an API key", key, "/api/v1/auth/me", 0},
		{"who am I with a session", cookie, "/api/v1/auth/me", 0},
		{"get one user", key, "/api/v1/users/" + u.ID, 1},
		{"list users", key, "/api/v1/users?limit=50", 1},
		{"list roles", key, "/api/v1/roles", 1},
		{"unread notifications", key, "/api/v1/notifications/unread-count", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.client.get(t, c.path, http.StatusOK) // warms the credential cache
			res, body := c.client.do(t, http.MethodGet, c.path, nil)
			require.Equal(t, http.StatusOK, res.StatusCode, body)
			id := res.Header.Get("X-Request-Id")
			counter.mu.Lock()
			defer counter.mu.Unlock()
			require.Equal(t, c.queries, counter.counts[id], "queries: %q", counter.sql[id])
		})
	}
}

// TestCreateQueries reports (and bounds) the round trips of a create: the row, its audit
// row, the event, its fan-out (here an in-app notification for the other administrator)
// and the delivery jobs, in one transaction.
func TestCreateQueries(t *testing.T) {
	t.Parallel()
	counter := &queryCounter{counts: map[string]int{}, sql: map[string][]string{}}
	ts := startTracedServer(t, pgtest.NewDatabase(t), counter)
	key := ts.bearerClient(ts.newAPIKey(t, ts.admin(t)))
	_, other := ts.newUser(t, "admin")
	before := other.get(t, "/api/v1/notifications/unread-count", http.StatusOK)["count"].(float64)
	key.post(t, "/api/v1/admin/invites", `{"intendedRole":"assessee"}`, http.StatusCreated)
	res, body := key.do(t, http.MethodPost, "/api/v1/admin/invites", `{"intendedRole":"assessee"}`)
	require.Equal(t, http.StatusCreated, res.StatusCode, body)
	id := res.Header.Get("X-Request-Id")
	counter.mu.Lock()
	t.Logf("create invite: %d round trips:\n%s", counter.counts[id], strings.Join(counter.sql[id], "\n---\n"))
	// begin; the invite (its role resolved by the insert); one batch of the audit row,
	// the event, the recipients with their notifications, the rules' addresses and the
	// webhooks; commit. The actor's name comes from the request's principal.
	require.LessOrEqual(t, counter.counts[id], 4)
	counter.mu.Unlock()
	unread := other.get(t, "/api/v1/notifications/unread-count", http.StatusOK)
	require.EqualValues(t, before+2, unread["count"], "the other administrator is notified of both invites: %v", unread)
}
