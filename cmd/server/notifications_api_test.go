package main

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

func unreadCount(t *testing.T, b *browser) int {
	t.Helper()
	res, body := b.do("GET", "/api/v1/notifications/unread-count", "")
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, "no-store", res.Header.Get("Cache-Control"))
	return int(body["count"].(float64))
}

// TestNotificationsAPI: each user sees, reads and counts only their own notifications.
func TestNotificationsAPI(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := setUpAdmin(t, ts)
	carol, _ := newAccount(t, ts, admin, "carol", assess.RoleAdmin)
	bob, _ := newAccount(t, ts, admin, "bob", assess.RoleAssessee)

	// Another administrator creating users notifies the first one of each, newest first.
	before := unreadCount(t, admin)
	for i := range 5 {
		res, body := carol.do("POST", "/api/v1/users", fmt.Sprintf(
			`{"username":"new%d","email":"new%d@example.com","displayName":"New %d","password":"long enough password","roles":["assessee"]}`, i, i, i))
		require.Equal(t, 201, res.StatusCode, body)
	}
	require.Equal(t, before+5, unreadCount(t, admin))

	res, body := admin.do("GET", "/api/v1/notifications?limit=2", "")
	require.Equal(t, 200, res.StatusCode, body)
	page := items(t, body)
	require.Len(t, page, 2)
	require.Equal(t, true, body["hasMore"])
	newest := page[0]
	require.Equal(t, "user.created", newest["type"])
	require.Equal(t, false, newest["read"])
	require.Equal(t, "new4", newest["params"].(map[string]any)["summary"])
	require.NotEmpty(t, newest["title"])

	all := allPages(t, admin, "/api/v1/notifications?limit=2")
	ids := idsOf(all)
	require.Len(t, ids, before+5)
	require.Equal(t, idsOf(page), ids[:2], "the cursor continues where the first page ended")
	seen := map[string]bool{}
	for _, id := range ids {
		require.False(t, seen[id], "each notification once: %s", id)
		seen[id] = true
	}

	// Marking one read.
	res, body = admin.do("POST", "/api/v1/notifications/"+ids[0]+"/read", "")
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, true, body["read"])
	require.NotEmpty(t, body["readAt"])
	res, body = admin.do("POST", "/api/v1/notifications/"+ids[0]+"/read", "")
	require.Equal(t, 200, res.StatusCode, body, "marking it again changes nothing")
	require.Equal(t, before+4, unreadCount(t, admin))
	unread := idsOf(allPages(t, admin, "/api/v1/notifications?unread=true&limit=3"))
	require.Len(t, unread, before+4)
	require.NotContains(t, unread, ids[0])

	// Nobody else reaches them.
	res, body = bob.do("POST", "/api/v1/notifications/"+ids[1]+"/read", "")
	requireEnvelope(t, res, body, 404, "not_found")
	require.NotContains(t, idsOf(allPages(t, bob, "/api/v1/notifications?limit=50")), ids[1])
	require.Equal(t, before+4, unreadCount(t, admin), "bob's attempt marked nothing")
	for _, id := range []string{"x", "nt_0000000000000000000000000", "../notifications"} {
		res, body = admin.do("POST", "/api/v1/notifications/"+id+"/read", "")
		require.Equal(t, 404, res.StatusCode, "%s: %v", id, body)
	}
	for _, q := range []string{"limit=0", "limit=201", "unread=maybe", "cursor=not-a-cursor"} {
		res, body = admin.do("GET", "/api/v1/notifications?"+q, "")
		require.Equal(t, 400, res.StatusCode, "%s: %v", q, body)
		require.Equal(t, "validation_failed", body["error"])
	}

	// Read-all marks the caller's unread ones, and only theirs.
	carolBefore := unreadCount(t, carol)
	require.Positive(t, carolBefore, "carol was told about bob")
	res, body = admin.do("POST", "/api/v1/notifications/read-all", "")
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, float64(before+4), body["updated"])
	require.Equal(t, 0, unreadCount(t, admin))
	res, body = admin.do("POST", "/api/v1/notifications/read-all", "")
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, float64(0), body["updated"])
	require.Equal(t, carolBefore, unreadCount(t, carol))
}
