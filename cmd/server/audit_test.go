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

// auditRows reads one page of the audit log as the administrator.
func auditRows(t *testing.T, admin *apiClient, query string) []map[string]any {
	t.Helper()
	return items(t, admin.get(t, "/api/v1/audit?"+query, 200))
}

// TestAuditLogShowsNamesAndFiltersByUsername: the log names who acted and the user or
// role acted on, and its actor filter takes the username people know as well as an id.
func TestAuditLogShowsNamesAndFiltersByUsername(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	created := admin.post(t, "/api/v1/users", map[string]any{
		"username": "rita", "email": "rita@example.com", "displayName": "Rita Reader",
		"password": fixturePassword, "roles": []string{"assessee"},
	}, 201)
	rita := userFrom(t, created)
	ts.login(t, "rita", fixturePassword)
	ts.browser(t).do(t, "POST", "/api/v1/auth/login", `{"username":"rita","password":"not the password"}`)
	role := ts.newRole(t, "admin.audit")
	execSQL(t, ts, `INSERT INTO audit_log (actor, action) VALUES ('system', 'test.by_system'), ('cli:ops', 'test.by_cli')`)

	t.Run("the acting user and the user acted on by name", func(t *testing.T) {
		rows := auditRows(t, admin, "action=user.created")
		require.Len(t, rows, 1)
		require.Equal(t, admin.user.ID, rows[0]["actor"])
		require.Equal(t, "Ada Admin", rows[0]["actorName"])
		require.Equal(t, rita.ID, rows[0]["targetId"])
		require.Equal(t, "Rita Reader", rows[0]["targetName"])
	})
	t.Run("a role acted on by name", func(t *testing.T) {
		rows := auditRows(t, admin, "action=role.created")
		require.Len(t, rows, 1)
		require.Equal(t, role.Name, rows[0]["targetName"])
	})
	for action, name := range map[string]string{
		"test.by_system": "System", "test.by_cli": "Command line", "auth.login_failed": "Anonymous",
	} {
		t.Run(action+" is by "+name, func(t *testing.T) {
			rows := auditRows(t, admin, "action="+action)
			require.NotEmpty(t, rows)
			require.Equal(t, name, rows[0]["actorName"])
		})
	}
	t.Run("the actor filter takes a username in any case, or an id, alike", func(t *testing.T) {
		byID := auditRows(t, admin, "actor="+rita.ID)
		require.NotEmpty(t, byID)
		for _, row := range byID {
			require.Equal(t, rita.ID, row["actor"])
			require.Equal(t, "Rita Reader", row["actorName"])
		}
		require.Equal(t, idsOf(byID), idsOf(auditRows(t, admin, "actor=rita")))
		require.Equal(t, idsOf(byID), idsOf(auditRows(t, admin, "actor=RITA")))
	})
	t.Run("the actor filter still takes the other actors' ids", func(t *testing.T) {
		rows := auditRows(t, admin, "actor=cli:ops")
		require.Len(t, rows, 1)
		require.Equal(t, "test.by_cli", rows[0]["action"])
		require.Empty(t, auditRows(t, admin, "actor=nobody"))
	})
	t.Run("pages of a username filter follow nextCursor", func(t *testing.T) {
		require.Len(t, pageThrough(t, admin, "/api/v1/audit?actor=admin&limit=2"), len(auditRows(t, admin, "actor=admin&limit=200")))
	})
}
