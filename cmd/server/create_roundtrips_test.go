package main

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

// TestDomainCreateRoundTrips pins the database round trips of the creates make bench
// measures against the write ceiling (issue 27 item 4; docs/performance.md, "Creates and
// the write ceiling"), each made as the bench makes it — evidence linked to a requirement,
// a claim citing evidence and a requirement and a work note by a participant without
// view_all; an assessment with an assessee and an invite by an administrator — and what
// each still writes: its audit rows, its events and the notifications of the users they
// concern, exactly once.
func TestDomainCreateRoundTrips(t *testing.T) {
	t.Parallel()
	counter := &queryCounter{counts: map[string]int{}, sql: map[string][]string{}}
	ts := startTracedServer(t, pgtest.NewDatabase(t), counter)
	admin := ts.bearerClient(ts.newAPIKey(t, ts.admin(t)))
	p, pc := ts.newUser(t, assess.RoleAssessor)
	o, _ := ts.newUser(t, assess.RoleAssessee)
	other, _ := ts.newUser(t, "admin") // hears of what administrators hear of
	participant := ts.bearerClient(ts.newAPIKey(t, pc))
	w := newClaimWorld(t, ts)
	aid, ars := w.assessment("Payments review", []string{p.ID}, []string{o.ID})
	cited := w.evidence("Scan report", o.ID, ars[0])

	for _, c := range []struct {
		name   string
		client *apiClient
		path   string
		body   string
		// Round trips: the begin travels with the first batch (checks, or the writes with
		// the audit row and the event), then the commit; a note that mentions someone
		// reads the mentioned first.
		trips    int
		recorded []string // the audit rows, then the events, then who was notified of what (as before issue 27 item 4)
	}{
		{"evidence", participant, "/api/v1/evidence",
			`{"name":"Bench scan report","description":"Weekly scan.","validUntil":"2031-06-30","requirementIds":["` + ars[1] + `"]}`,
			3, []string{"audit evidence.created", "audit evidence.linked", "event evidence.created", "event evidence.linked"}},
		{"assessment", admin, "/api/v1/assessments",
			`{"title":"Created assessment","entityId":"` + w.entityID + `","assesseeIds":["` + o.ID + `"]}`,
			3, []string{"audit assessment.created", "event assessment.created", "notified " + o.Username + " of assessment.created"}},
		{"claim", participant, "/api/v1/assessments/" + aid + "/claims",
			`{"name":"Claim","target":"The product","predicate":"It holds.","reasoning":"The scan shows it.","evidenceIds":["` +
				cited + `"],"requirementIds":["` + ars[0] + `"]}`,
			3, []string{"audit claim.created", "event claim.created"}},
		{"note", participant, "/api/v1/assessments/" + aid + "/notes", `{"content":"Checked the scans, @` + o.Username + `."}`,
			4, []string{"audit assessment.note_added", "event assessment.note_added",
				"notified " + o.Username + " of assessment.note_added"}},
		{"invite", admin, "/api/v1/admin/invites", `{"intendedRole":"assessee"}`,
			2, []string{"audit invite.created", "event invite.created", "notified " + other.Username + " of invite.created"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.client.post(t, c.path, c.body, http.StatusCreated) // warms the credential cache
			res, body := c.client.do(t, http.MethodPost, c.path, c.body)
			require.Equal(t, http.StatusCreated, res.StatusCode, body)
			id := res.Header.Get("X-Request-Id")
			counter.mu.Lock()
			trips, sql := counter.counts[id], counter.sql[id]
			counter.mu.Unlock()
			require.Equal(t, c.trips, trips, "round trips:\n%s", strings.Join(sql, "\n---\n"))
			created, _ := body["id"].(string)
			if inv, ok := body["invite"].(map[string]any); ok {
				created, _ = inv["id"].(string)
			}
			require.NotEmpty(t, created, "%v", body)
			require.Equal(t, c.recorded, recordedBy(t, ts, id, created))
		})
	}
}

// recordedBy lists what request requestID recorded about record id: its audit rows, the
// events about the record and who was notified of each (by username).
func recordedBy(t *testing.T, ts *testServer, requestID, id string) []string {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), ts.dsn)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	var out []string
	for _, q := range []struct {
		sql string
		arg string
	}{
		{`SELECT 'audit ' || action FROM audit_log WHERE request_id = $1 ORDER BY id`, requestID},
		{`SELECT 'event ' || type FROM events WHERE data->>'id' = $1 ORDER BY id`, id},
		{`SELECT 'notified ' || u.username || ' of ' || e.type FROM notifications n JOIN events e ON e.id = n.event_id
			JOIN users u ON u.id = n.user_id WHERE e.data->>'id' = $1 ORDER BY e.id, u.username`, id},
	} {
		rows, err := conn.Query(context.Background(), q.sql, q.arg)
		require.NoError(t, err)
		lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
		require.NoError(t, err)
		out = append(out, lines...)
	}
	return out
}
