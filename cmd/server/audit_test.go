package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestAuditLogAPI(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	ts.browser(t).do(t, "POST", "/api/v1/auth/login", `{"username":"admin","password":"not the password"}`)
	_, reader := ts.newUserNamed(t, "reader", "assessee")

	t.Run("reading the log needs admin.audit", func(t *testing.T) {
		reader.fails(t, "GET", "/api/v1/audit", nil, 403, "permission_denied")
	})
	t.Run("the log records setup, sign-ins and refusals", func(t *testing.T) {
		body := admin.get(t, "/api/v1/audit", 200)
		var actions []string
		for _, it := range body["items"].([]any) {
			actions = append(actions, it.(map[string]any)["action"].(string))
		}
		for _, want := range []string{"setup.completed", "auth.login_failed", "auth.login", "auth.permission_denied"} {
			require.Contains(t, actions, want)
		}
	})
	t.Run("a failed sign-in is recorded with its reason, request id and address", func(t *testing.T) {
		body := admin.get(t, "/api/v1/audit?action=auth.login_failed", 200)
		items := body["items"].([]any)
		require.Len(t, items, 1)
		failed := items[0].(map[string]any)
		require.Equal(t, "wrong_password", failed["details"].(map[string]any)["reason"])
		require.NotEmpty(t, failed["requestId"])
		require.Equal(t, "127.0.0.1", failed["ip"])
	})

	// Pages: a prefix filter, one row per page, following nextCursor to the end.
	t.Run("pages of a prefix filter follow nextCursor without repeats", func(t *testing.T) {
		seen := map[string]bool{}
		cursor := ""
		for page := 0; ; page++ {
			require.Less(t, page, 20)
			body := admin.get(t, "/api/v1/audit?action=auth.&limit=1&cursor="+cursor, 200)
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
	})

	for _, bad := range []string{"?cursor=abc", "?limit=0", "?limit=201", "?from=yesterday"} {
		t.Run("a bad query is refused: "+bad, func(t *testing.T) {
			admin.fails(t, "GET", "/api/v1/audit"+bad, nil, 400, "validation_failed")
		})
	}
}
