package main

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
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
	args   map[string][][]any // of single queries (not batches), in the order of sql
}

func (c *queryCounter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, data pgx.TraceQueryStartData) context.Context {
	if id := logging.RequestID(ctx); id != "" {
		c.mu.Lock()
		c.counts[id]++
		c.sql[id] = append(c.sql[id], data.SQL)
		if c.args != nil {
			c.args[id] = append(c.args[id], data.Args)
		}
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
// issues one query whatever its length (no N+1). The unread count, read again with no
// change in between, comes from the unread-count cache.
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
		{"unread notifications", key, "/api/v1/notifications/unread-count", 0}, // the warm-up cached the count too
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
	// One batch of the begin, the invite (its role resolved by the insert) and the one
	// statement of the audit row, the event and its fan-out (recipients with their
	// notifications, the rules' addresses, the webhooks); the commit. The actor's name
	// comes from the request's principal.
	require.LessOrEqual(t, counter.counts[id], 2)
	counter.mu.Unlock()
	unread := other.get(t, "/api/v1/notifications/unread-count", http.StatusOK)
	require.EqualValues(t, before+2, unread["count"], "the other administrator is notified of both invites: %v", unread)
}

// TestAssessmentWorkQueries pins the queries of the main reads of assessment work, as a
// participant without assessments.view_all (the visibility rule in SQL) and as an
// administrator: each list has several items, so a query per item (N+1) changes the count.
func TestAssessmentWorkQueries(t *testing.T) {
	t.Parallel()
	counter := &queryCounter{counts: map[string]int{}, sql: map[string][]string{}}
	ts := startTracedServer(t, pgtest.NewDatabase(t), counter)
	admin := ts.bearerClient(ts.newAPIKey(t, ts.admin(t)))
	p, pc := ts.newUser(t, assess.RoleAssessor)
	o, _ := ts.newUser(t, assess.RoleAssessee)
	participant := ts.bearerClient(ts.newAPIKey(t, pc))
	w := newClaimWorld(t, ts)
	var aid string
	var ars []string
	for i := range 3 {
		aid, ars = w.assessment(fmt.Sprintf("Assessment %d", i), []string{p.ID}, []string{o.ID})
	}
	var evidence []string
	for i, ar := range ars {
		evidence = append(evidence, w.evidence(fmt.Sprintf("Evidence %d", i), o.ID, ar))
	}
	var project string
	for i := range 3 {
		admin.post(t, "/api/v1/assessments/"+aid+"/claims", map[string]any{"name": fmt.Sprintf("Claim %d", i), "target": "The service",
			"predicate": "It holds.", "evidenceIds": evidence[i:], "requirementIds": ars[:i+1]}, http.StatusCreated)
		project = admin.post(t, "/api/v1/projects", map[string]any{"name": fmt.Sprintf("Project %d", i), "standardIds": []string{w.standardID},
			"entityIds": []string{w.entityID}}, http.StatusCreated)["id"].(string)
	}

	// Counted are round trips: a batch of statements sent together counts once, so a page's
	// links read one query at a time again would change the counts. A read under one
	// assessment first checks that the caller may see it (one round trip, for an
	// administrator too); a list applies the rule in its own WHERE. Assessments are the
	// page's row(s), then one batch of their tags, standards, team and progress (one query
	// each for the whole page); one assessment is the check, then its row in the batch of
	// its links. Evidence is the row(s) and their tags (filtered by an assessment the filter
	// implies the rule; unfiltered, a participant's list first asks whether they take part
	// in few assessments); one evidence is its row with its tags in one batch. Projects are
	// the page's rows, then one batch of their tags, standards and entities; one project is
	// its row with its links in one batch. A claim's evidence and requirements are
	// sub-selects of its row; the requirements of an assessment are the visibility check and
	// the list's revision (conditional.go), the list kept in memory since the first read.
	reads := []struct {
		name            string
		path            string
		asParticipant   int
		asAdministrator int
	}{
		{"get an assessment", "/api/v1/assessments/" + aid, 2, 2},
		{"list assessments", "/api/v1/assessments?limit=50", 2, 2},
		{"list the requirements of an assessment", "/api/v1/assessments/" + aid + "/requirements", 2, 2},
		{"list evidence of an assessment", "/api/v1/evidence?assessment=" + aid + "&limit=50", 2, 2},
		{"list evidence", "/api/v1/evidence?limit=50", 3, 2},
		{"get evidence", "/api/v1/evidence/" + evidence[0], 1, 1},
		{"list projects", "/api/v1/projects?limit=50", 2, 2},
		{"get a project", "/api/v1/projects/" + project, 1, 1},
		{"list claims", "/api/v1/assessments/" + aid + "/claims", 2, 2},
		{"timeline", "/api/v1/assessments/" + aid + "/timeline", 2, 2},
	}
	for _, c := range reads {
		for _, who := range []struct {
			name    string
			client  *apiClient
			queries int
		}{{"participant", participant, c.asParticipant}, {"administrator", admin, c.asAdministrator}} {
			t.Run(c.name+" as "+who.name, func(t *testing.T) {
				body := who.client.get(t, c.path, http.StatusOK) // warms the credential cache
				if list, ok := body["items"].([]any); ok {
					require.GreaterOrEqual(t, len(list), 3, "a list of several items: %v", body)
				}
				res, raw := who.client.do(t, http.MethodGet, c.path, nil)
				require.Equal(t, http.StatusOK, res.StatusCode, raw)
				id := res.Header.Get("X-Request-Id")
				counter.mu.Lock()
				defer counter.mu.Unlock()
				require.Equal(t, who.queries, counter.counts[id], "queries:\n%s", strings.Join(counter.sql[id], "\n---\n"))
			})
		}
	}
}

// TestCompleteQueriesDoNotGrowWithRequirements: completing an assessment loads what its
// rules decide from (answers, rationales, the evidence of each requirement) in one query,
// so completing one of 442 requirements takes as many round trips as completing one of 3;
// so does the preview of completion (two: visibility with the state, then the facts).
func TestCompleteQueriesDoNotGrowWithRequirements(t *testing.T) {
	t.Parallel()
	counter := &queryCounter{counts: map[string]int{}, sql: map[string][]string{}}
	ts := startTracedServer(t, pgtest.NewDatabase(t), counter)
	session := ts.admin(t)
	admin := ts.bearerClient(ts.newAPIKey(t, session))
	w := newClaimWorld(t, ts)
	small, smallARs := w.assessment("Small", nil, nil)
	ts.sqlExec(t, `INSERT INTO requirements (id, standard_id, identifier, natural_key, name, position)
		SELECT 'rq_x' || lpad(g::text, 25, '0'), $1, 'X' || g, 'X' || g, 'Requirement X' || g, 10 + g FROM generate_series(1, 439) g`,
		w.standardID)
	large, _ := w.assessment("Large", nil, nil)
	ts.sqlExec(t, `INSERT INTO assessment_requirements (id, assessment_id, requirement_id, standard_id)
		SELECT 'ar_x' || lpad(g::text, 25, '0'), $1, 'rq_x' || lpad(g::text, 25, '0'), $2 FROM generate_series(1, 439) g`,
		large, w.standardID)
	require.Equal(t, 442, w.count(`SELECT count(*) FROM assessment_requirements WHERE assessment_id = $1`, large))
	ts.sqlExec(t, `UPDATE assessment_requirements SET result = 'partial', rationale = $2, rationale_words = 15
		WHERE assessment_id = ANY ($1)`, []string{small, large}, fifteenWords)
	scan := w.evidence("Scan", session.user.ID, smallARs...) // every_positive: evidence on every requirement answered partial
	ts.sqlExec(t, `INSERT INTO assessment_requirement_evidence (assessment_requirement_id, evidence_id, assessment_id)
		SELECT id, $2, assessment_id FROM assessment_requirements WHERE assessment_id = $1`, large, scan)

	counts, checks := map[string]int{}, map[string]int{}
	for name, id := range map[string]string{"small": small, "large": large} {
		path := "/api/v1/assessments/" + id
		a := admin.get(t, path, http.StatusOK)
		admin.get(t, path+"/completion-check", http.StatusOK) // warms the credential cache
		res, raw := admin.do(t, http.MethodGet, path+"/completion-check", nil)
		require.Equal(t, http.StatusOK, res.StatusCode, raw)
		require.Equal(t, true, raw["canComplete"], raw)
		counter.mu.Lock()
		checks[name] = counter.counts[res.Header.Get("X-Request-Id")]
		counter.mu.Unlock()
		res, raw = admin.do(t, http.MethodPost, path+"/complete", map[string]any{"version": a["version"]})
		require.Equal(t, http.StatusOK, res.StatusCode, raw)
		require.Equal(t, 50.0, raw["conformanceScore"])
		counter.mu.Lock()
		counts[name] = counter.counts[res.Header.Get("X-Request-Id")]
		t.Logf("complete %s: %d round trips:\n%s", name, counts[name], strings.Join(counter.sql[res.Header.Get("X-Request-Id")], "\n---\n"))
		counter.mu.Unlock()
	}
	require.Equal(t, counts["small"], counts["large"])
	require.Equal(t, map[string]int{"small": 2, "large": 2}, checks)
}
