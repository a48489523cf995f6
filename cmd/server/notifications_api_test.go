package main

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

func unreadCount(t *testing.T, c *apiClient) int {
	t.Helper()
	res, body := c.do(t, "GET", "/api/v1/notifications/unread-count", nil)
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, "no-store", res.Header.Get("Cache-Control"))
	return int(body["count"].(float64))
}

// TestNotificationsAPI: each user sees, reads and counts only their own notifications.
func TestNotificationsAPI(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	_, carol := ts.newUser(t, assess.RoleAdmin)
	_, bob := ts.newUser(t, assess.RoleAssessee)

	// Another administrator creating users notifies the first one of each, newest first.
	var before int
	step(t, "another administrator's new users notify the first one", func(t *testing.T) {
		before = unreadCount(t, admin)
		for i := range 5 {
			carol.post(t, "/api/v1/users", fmt.Sprintf(
				`{"username":"new%d","email":"new%d@example.com","displayName":"New %d","password":"long enough password","roles":["assessee"]}`, i, i, i), 201)
		}
		require.Equal(t, before+5, unreadCount(t, admin))
	})

	var page []map[string]any
	step(t, "the first page is newest first", func(t *testing.T) {
		body := admin.get(t, "/api/v1/notifications?limit=2", 200)
		page = items(t, body)
		require.Len(t, page, 2)
		require.Equal(t, true, body["hasMore"])
		newest := page[0]
		require.Equal(t, "user.created", newest["type"])
		require.Equal(t, false, newest["read"])
		require.Equal(t, "new4", newest["params"].(map[string]any)["summary"])
		require.NotEmpty(t, newest["title"])
	})
	var ids []string
	step(t, "the cursor lists each notification once", func(t *testing.T) {
		ids = idsOf(allPages(t, admin, "/api/v1/notifications?limit=2"))
		require.Len(t, ids, before+5)
		require.Equal(t, idsOf(page), ids[:2], "the cursor continues where the first page ended")
		seen := map[string]bool{}
		for _, id := range ids {
			require.False(t, seen[id], "each notification once: %s", id)
			seen[id] = true
		}
	})

	step(t, "marking one read", func(t *testing.T) {
		body := admin.post(t, "/api/v1/notifications/"+ids[0]+"/read", nil, 200)
		require.Equal(t, true, body["read"])
		require.NotEmpty(t, body["readAt"])
		res, body := admin.do(t, "POST", "/api/v1/notifications/"+ids[0]+"/read", nil)
		require.Equal(t, 200, res.StatusCode, body, "marking it again changes nothing")
		require.Equal(t, before+4, unreadCount(t, admin))
		unread := idsOf(allPages(t, admin, "/api/v1/notifications?unread=true&limit=3"))
		require.Len(t, unread, before+4)
		require.NotContains(t, unread, ids[0])
	})

	t.Run("nobody else reaches them", func(t *testing.T) {
		bob.fails(t, "POST", "/api/v1/notifications/"+ids[1]+"/read", nil, 404, "not_found")
		require.NotContains(t, idsOf(allPages(t, bob, "/api/v1/notifications?limit=50")), ids[1])
		require.Equal(t, before+4, unreadCount(t, admin), "bob's attempt marked nothing")
	})
	for _, id := range []string{"x", "nt_0000000000000000000000000", "../notifications"} {
		t.Run("an unknown id is not found: "+id, func(t *testing.T) {
			res, body := admin.do(t, "POST", "/api/v1/notifications/"+id+"/read", nil)
			require.Equal(t, 404, res.StatusCode, "%s: %v", id, body)
		})
	}
	for _, q := range []string{"limit=0", "limit=201", "unread=maybe", "cursor=not-a-cursor"} {
		t.Run("a bad query is refused: "+q, func(t *testing.T) {
			res, body := admin.do(t, "GET", "/api/v1/notifications?"+q, nil)
			require.Equal(t, 400, res.StatusCode, "%s: %v", q, body)
			require.Equal(t, "validation_failed", body["error"])
		})
	}

	t.Run("read-all marks the caller's unread ones, and only theirs", func(t *testing.T) {
		carolBefore := unreadCount(t, carol)
		require.Positive(t, carolBefore, "carol was told about bob")
		body := admin.post(t, "/api/v1/notifications/read-all", nil, 200)
		require.Equal(t, float64(before+4), body["updated"])
		require.Equal(t, 0, unreadCount(t, admin))
		body = admin.post(t, "/api/v1/notifications/read-all", nil, 200)
		require.Equal(t, float64(0), body["updated"])
		require.Equal(t, carolBefore, unreadCount(t, carol))
	})
}
