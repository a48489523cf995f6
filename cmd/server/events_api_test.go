package main

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

// setUpAdmin completes the first-run setup and returns the administrator's browser.
func setUpAdmin(t *testing.T, ts *testServer) *browser {
	t.Helper()
	admin := newBrowser(t, ts)
	res, body := admin.do("POST", "/api/v1/setup", adminJSON)
	require.Equal(t, 201, res.StatusCode, body)
	return admin
}

// newAccount has admin create an account with roles and returns it signed in, with its id.
func newAccount(t *testing.T, ts *testServer, admin *browser, username string, roles ...string) (*browser, string) {
	t.Helper()
	res, body := admin.do("POST", "/api/v1/users", fmt.Sprintf(
		`{"username":%q,"email":"%s@example.com","displayName":%q,"password":"long enough password","roles":%s}`,
		username, username, username, jsonList(roles)))
	require.Equal(t, 201, res.StatusCode, body)
	b := newBrowser(t, ts)
	res, body = b.do("POST", "/api/v1/auth/login", fmt.Sprintf(`{"username":%q,"password":"long enough password"}`, username))
	require.Equal(t, 200, res.StatusCode, body)
	return b, body["user"].(map[string]any)["id"].(string)
}

func jsonList(items []string) string {
	out := "["
	for i, s := range items {
		if i > 0 {
			out += ","
		}
		out += fmt.Sprintf("%q", s)
	}
	return out + "]"
}

// items returns the items of a page envelope.
func items(t *testing.T, body map[string]any) []map[string]any {
	t.Helper()
	raw, ok := body["items"].([]any)
	require.True(t, ok, "a page has items: %v", body)
	out := make([]map[string]any, 0, len(raw))
	for _, it := range raw {
		out = append(out, it.(map[string]any))
	}
	return out
}

// idsOf returns the ids of page items.
func idsOf(list []map[string]any) []string {
	out := make([]string, 0, len(list))
	for _, it := range list {
		out = append(out, it["id"].(string))
	}
	return out
}

// allPages follows nextCursor from path (which has a query string) and returns every item.
func allPages(t *testing.T, b *browser, path string) []map[string]any {
	t.Helper()
	var all []map[string]any
	cursor := ""
	for range 100 {
		res, body := b.do("GET", path+"&cursor="+cursor, "")
		require.Equal(t, 200, res.StatusCode, body)
		all = append(all, items(t, body)...)
		if body["hasMore"] != true {
			require.Empty(t, body["nextCursor"])
			return all
		}
		cursor = body["nextCursor"].(string)
		require.NotEmpty(t, cursor)
	}
	t.Fatalf("%s: more than 100 pages", path)
	return nil
}

// execSQL runs SQL against the server's database, for states the API cannot reach quickly.
func execSQL(t *testing.T, ts *testServer, sql string, args ...any) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, ts.dsn)
	require.NoError(t, err)
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql, args...)
	require.NoError(t, err)
}

func TestEventCatalogueAndChannelsAPI(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "SLACK_ENABLED=true", "WEBHOOK_ENABLED=false")
	admin := setUpAdmin(t, ts)
	bob, _ := newAccount(t, ts, admin, "bob", assess.RoleAssessee)

	res, body := bob.do("GET", "/api/v1/events/types", "")
	require.Equal(t, 200, res.StatusCode, body)
	types := items(t, body)
	require.Len(t, types, len(assess.EventTypes))
	require.Equal(t, map[string]any{
		"type": "user.created", "category": "user", "title": "User created",
		"description": "An account was created (setup, administrator, registration or invite).",
		"permission":  "admin.users", "notifyHolders": true, "notifySubject": false, "emailDefault": false,
	}, types[0])

	res, body = bob.do("GET", "/api/v1/notification-channels", "")
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, map[string]any{"inApp": true, "email": false, "webhook": false, "slack": true, "teams": false, "mattermost": false}, body)
}

// TestEventsAPIBadInput: malformed requests to the event, rule and channel endpoints are
// client errors with the envelope, never internal errors.
func TestEventsAPIBadInput(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "OUTBOUND_ALLOW_NETWORKS=127.0.0.0/8", "SLACK_ENABLED=true")
	admin := setUpAdmin(t, ts)
	res, body := admin.do("POST", "/api/v1/admin/webhooks", `{"name":"w","url":"http://127.0.0.1:9/x","eventTypes":["*"]}`)
	require.Equal(t, 201, res.StatusCode, body)
	wh := body["id"].(string)
	res, body = admin.do("POST", "/api/v1/admin/chat-destinations", `{"platform":"slack","name":"c","url":"https://hooks.slack.com/services/A/B/C","eventTypes":["*"]}`)
	require.Equal(t, 201, res.StatusCode, body)
	ch := body["id"].(string)
	res, body = admin.do("POST", "/api/v1/notification-rules", `{"name":"r","eventTypes":["*"],"channels":{"inApp":true,"email":false,"webhookIds":[],"chatIds":[]}}`)
	require.Equal(t, 201, res.StatusCode, body)
	rule := body["id"].(string)

	huge := strings.Repeat("x", 3000)
	for _, c := range []struct{ method, path, body string }{
		{"PATCH", "/api/v1/admin/webhooks/" + wh, `{"version":1,"eventTypes":[]}`},
		{"PATCH", "/api/v1/admin/webhooks/" + wh, `{"version":0,"name":"x"}`},
		{"PATCH", "/api/v1/admin/webhooks/" + wh, `{"version":99999999999999999999}`},
		{"PATCH", "/api/v1/admin/webhooks/" + wh, `{"version":1,"url":"` + huge + `"}`},
		{"PATCH", "/api/v1/admin/webhooks/" + wh, `{"version":1,"url":"::not a url"}`},
		{"PATCH", "/api/v1/admin/webhooks/" + wh, `{"version":1,"eventTypes":["user.*","*","nope.*"]}`},
		{"POST", "/api/v1/admin/webhooks", `{"name":"w","url":"http://[::1]:9/x","eventTypes":["*"]}`},
		{"POST", "/api/v1/admin/webhooks", `{"name":"w","url":"https://","eventTypes":["*"]}`},
		{"POST", "/api/v1/admin/webhooks", `{"name":"w","url":"https://hooks.example.com/x","eventTypes":[""]}`},
		{"PATCH", "/api/v1/admin/chat-destinations/" + ch, `{"version":1,"url":"https://evil.example.com/x"}`},
		{"PATCH", "/api/v1/admin/chat-destinations/" + ch, `{"version":1,"name":""}`},
		{"PATCH", "/api/v1/notification-rules/" + rule, `{"version":1,"channels":{"inApp":false,"email":false,"webhookIds":[],"chatIds":[]}}`},
		{"PATCH", "/api/v1/notification-rules/" + rule, `{"version":1,"roles":["admin"]}`},
		{"PATCH", "/api/v1/notification-rules/" + rule, `{"version":1,"emails":["not an address"]}`},
		{"POST", "/api/v1/admin/notification-rules", `{"name":"g","eventTypes":["*"],"channels":{"inApp":true,"email":false,"webhookIds":["` + ch + `"],"chatIds":["` + wh + `"]}}`},
		{"POST", "/api/v1/admin/notification-rules", `{"name":"g","eventTypes":["*"],"channels":{"inApp":false,"email":false,"webhookIds":[],"chatIds":[]}}`},
		{"PATCH", "/api/v1/admin/email/settings", `{"version":0,"from":"not an address"}`},
		{"PATCH", "/api/v1/admin/email/settings", `{"version":0,"host":"` + huge + `"}`},
		{"PATCH", "/api/v1/admin/email/settings", `{"version":-1}`},
		{"POST", "/api/v1/admin/email/test", `{"to":"` + huge + `@example.com"}`},
		{"GET", "/api/v1/admin/email/deliveries?cursor=" + huge, ""},
		{"GET", "/api/v1/admin/webhooks?cursor=%00", ""},
		{"GET", "/api/v1/admin/chat-destinations?cursor=bad&limit=5", ""},
		{"GET", "/api/v1/admin/notification-rules?cursor=bad", ""},
		{"POST", "/api/v1/auth/password-reset", `{"login":"` + huge + `"}`},
		{"POST", "/api/v1/auth/password-reset/confirm", `{"token":"` + huge + `","password":"a brand new passphrase"}`},
	} {
		res, body := admin.do(c.method, c.path, c.body)
		require.True(t, res.StatusCode >= 400 && res.StatusCode < 500, "%s %s %.80s: %d %v", c.method, c.path, c.body, res.StatusCode, body)
		require.NotEmpty(t, body["error"], "%s %s: the error envelope", c.method, c.path)
	}
}
