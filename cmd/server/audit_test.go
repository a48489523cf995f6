package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestAuditLogAPI(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := newBrowser(t, ts)
	res, _ := admin.do("POST", "/api/v1/setup", adminJSON)
	require.Equal(t, 201, res.StatusCode)
	anon := newBrowser(t, ts)
	anon.do("POST", "/api/v1/auth/login", `{"username":"admin","password":"not the password"}`)
	addUser(t, ts, "reader", "assessee")
	reader := newBrowser(t, ts)
	res, _ = reader.do("POST", "/api/v1/auth/login", `{"username":"reader","password":"matrix password 1"}`)
	require.Equal(t, 200, res.StatusCode)
	res, body := reader.do("GET", "/api/v1/audit", "")
	requireEnvelope(t, res, body, 403, "permission_denied")

	res, body = admin.do("GET", "/api/v1/audit", "")
	require.Equal(t, 200, res.StatusCode, body)
	var actions []string
	for _, it := range body["items"].([]any) {
		actions = append(actions, it.(map[string]any)["action"].(string))
	}
	for _, want := range []string{"setup.completed", "auth.login_failed", "auth.login", "auth.permission_denied"} {
		require.Contains(t, actions, want)
	}

	res, body = admin.do("GET", "/api/v1/audit?action=auth.login_failed", "")
	require.Equal(t, 200, res.StatusCode)
	items := body["items"].([]any)
	require.Len(t, items, 1)
	failed := items[0].(map[string]any)
	require.Equal(t, "wrong_password", failed["details"].(map[string]any)["reason"])
	require.NotEmpty(t, failed["requestId"])
	require.Equal(t, "127.0.0.1", failed["ip"])

	// Pages: a prefix filter, one row per page, following nextCursor to the end.
	seen := map[string]bool{}
	cursor := ""
	for page := 0; ; page++ {
		require.Less(t, page, 20)
		res, body = admin.do("GET", "/api/v1/audit?action=auth.&limit=1&cursor="+cursor, "")
		require.Equal(t, 200, res.StatusCode, body)
		for _, it := range body["items"].([]any) {
			id := it.(map[string]any)["id"].(string)
			require.False(t, seen[id], "no row twice")
			seen[id] = true
		}
		if body["hasMore"] != true {
			break
		}
		cursor = body["nextCursor"].(string)
	}
	require.GreaterOrEqual(t, len(seen), 3)

	for _, bad := range []string{"?cursor=abc", "?limit=0", "?limit=201", "?from=yesterday"} {
		res, body = admin.do("GET", "/api/v1/audit"+bad, "")
		requireEnvelope(t, res, body, 400, "validation_failed")
	}
}
