package main

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/httpapi"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

// TestCredentialCacheInvalidationAcrossReplicas: two servers on one database cache
// resolved credentials; a revoked key, an ended session, a deactivated user and a role
// that lost a permission are refused at once on the server that made the change and
// within a second on the other.
func TestCredentialCacheInvalidationAcrossReplicas(t *testing.T) {
	t.Parallel()
	dsn := pgtest.NewDatabase(t)
	a := startServerOn(t, dsn)
	b := startServerOn(t, dsn)
	admin := a.admin(t)

	// on returns the same credential pointed at the other server.
	on := func(ts *testServer, c *apiClient) *apiClient {
		copy := *c
		copy.ts = ts
		return &copy
	}
	// refused checks the change takes effect on a at once and on b within a second.
	refused := func(t *testing.T, c *apiClient, path string, status int) {
		t.Helper()
		res, body := on(a, c).do(t, http.MethodGet, path, nil)
		require.Equal(t, status, res.StatusCode, "on the server that made the change: %v", body)
		require.Eventually(t, func() bool {
			res, _ := on(b, c).do(t, http.MethodGet, path, nil)
			return res.StatusCode == status
		}, time.Second, 10*time.Millisecond, "on the other server within a second")
	}
	// cached makes both servers resolve (and cache) the credential.
	cached := func(t *testing.T, c *apiClient, path string) {
		t.Helper()
		for range 2 {
			on(a, c).get(t, path, http.StatusOK)
			on(b, c).get(t, path, http.StatusOK)
		}
	}

	t.Run("a revoked API key", func(t *testing.T) {
		_, owner := a.newUser(t, "assessor")
		key := a.bearerClient(a.newAPIKey(t, owner))
		cached(t, key, "/api/v1/auth/me")
		keys := owner.get(t, "/api/v1/me/api-keys", http.StatusOK)["items"].([]any)
		owner.delete(t, "/api/v1/me/api-keys/"+keys[0].(map[string]any)["id"].(string), http.StatusNoContent)
		refused(t, key, "/api/v1/auth/me", http.StatusUnauthorized)
	})
	t.Run("an ended session", func(t *testing.T) {
		_, browser := a.newUser(t, "assessor")
		u, err := url.Parse(a.url)
		require.NoError(t, err)
		var cookie string
		for _, c := range browser.http.Jar.Cookies(u) {
			if c.Name == httpapi.SessionCookieName {
				cookie = c.String()
			}
		}
		require.NotEmpty(t, cookie)
		// The same cookie, kept after sign-out (a copied or stolen cookie).
		session := &apiClient{ts: a, http: http.DefaultClient, header: http.Header{"Cookie": {cookie}}}
		cached(t, session, "/api/v1/auth/me")
		browser.post(t, "/api/v1/auth/logout", nil, http.StatusNoContent)
		refused(t, session, "/api/v1/auth/me", http.StatusUnauthorized)
	})
	t.Run("a deactivated user", func(t *testing.T) {
		u, owner := a.newUser(t, "assessor")
		key := a.bearerClient(a.newAPIKey(t, owner))
		cached(t, key, "/api/v1/auth/me")
		cur := admin.get(t, "/api/v1/users/"+u.ID, http.StatusOK)
		admin.patch(t, "/api/v1/users/"+u.ID, map[string]any{"version": cur["version"], "active": false}, http.StatusOK)
		refused(t, key, "/api/v1/auth/me", http.StatusUnauthorized)
	})
	t.Run("a role that lost a permission", func(t *testing.T) {
		r := a.newRole(t, "admin.audit")
		_, owner := a.newUser(t, r.Name)
		key := a.bearerClient(a.newAPIKey(t, owner))
		cached(t, key, "/api/v1/audit")
		cur := admin.get(t, "/api/v1/roles", http.StatusOK)
		var version any
		for _, it := range cur["items"].([]any) {
			if it.(map[string]any)["id"] == r.ID {
				version = it.(map[string]any)["version"]
			}
		}
		admin.patch(t, "/api/v1/roles/"+r.ID, map[string]any{"version": version, "permissions": []string{"admin.webhooks"}}, http.StatusOK)
		refused(t, key, "/api/v1/audit", http.StatusForbidden)
	})
	t.Run("a role taken from the user", func(t *testing.T) {
		u, owner := a.newUser(t, "assessor", "admin")
		key := a.bearerClient(a.newAPIKey(t, owner))
		cached(t, key, "/api/v1/audit")
		cur := admin.get(t, "/api/v1/users/"+u.ID, http.StatusOK)
		admin.patch(t, "/api/v1/users/"+u.ID, map[string]any{"version": cur["version"], "roles": []string{"assessor"}}, http.StatusOK)
		refused(t, key, "/api/v1/audit", http.StatusForbidden)
	})
}

// TestUnreadCountAcrossReplicas: two servers on one database cache a user's unread count;
// a new notification and reading them show at once on the server that made the change
// and within a second on the other.
func TestUnreadCountAcrossReplicas(t *testing.T) {
	t.Parallel()
	dsn := pgtest.NewDatabase(t)
	a := startServerOn(t, dsn)
	b := startServerOn(t, dsn)
	admin := a.admin(t)
	_, carol := a.newUser(t, "admin")
	onB := *carol // the same session on the other server
	onB.ts, onB.origin = b, b.url
	// both servers read (and cache) carol's count.
	cached := func() int {
		n := unreadCount(t, carol)
		for range 2 {
			require.Equal(t, n, unreadCount(t, carol))
			require.Equal(t, n, unreadCount(t, &onB))
		}
		return n
	}
	// changed checks the count is want on the server that made the change at once, and
	// on the other within a second.
	changed := func(here, there *apiClient, want int) {
		t.Helper()
		require.Equal(t, want, unreadCount(t, here), "on the server that made the change")
		require.Eventually(t, func() bool { return unreadCount(t, there) == want },
			time.Second, 10*time.Millisecond, "on the other server within a second")
	}

	n := cached()
	admin.post(t, "/api/v1/admin/invites", `{"intendedRole":"assessee"}`, http.StatusCreated) // carol holds admin.users
	changed(carol, &onB, n+1)

	cached()
	onB.post(t, "/api/v1/notifications/read-all", nil, http.StatusOK)
	changed(&onB, carol, 0)
}
