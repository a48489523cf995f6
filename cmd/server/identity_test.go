package main

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestSetupSignInAndSessions(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "LOGIN_MAX_FAILED_ATTEMPTS=3")
	b := ts.browser(t)

	t.Run("setup applies the password policy", func(t *testing.T) {
		body := b.fails(t, "POST", "/api/v1/setup", `{"username":"admin","email":"admin@example.com","displayName":"A","password":"short"}`, 400, "validation_failed")
		require.Equal(t, "password", body["details"].([]any)[0].(map[string]any)["field"])
	})
	step(t, "setup creates the administrator and signs them in", func(t *testing.T) {
		res, body := b.do(t, "POST", "/api/v1/setup", adminJSON)
		require.Equal(t, 201, res.StatusCode, body)
		cookie := res.Header.Get("Set-Cookie")
		require.Contains(t, cookie, "assay_session=")
		require.Contains(t, cookie, "HttpOnly")
		require.Contains(t, cookie, "SameSite=Lax")
		require.NotContains(t, cookie, "Secure", "plain HTTP in development: no Secure flag (COOKIE_SECURE=auto)")
		require.Contains(t, body["permissions"], "admin.encryption")
		require.Equal(t, []any{"admin"}, body["user"].(map[string]any)["roles"])
	})
	t.Run("the wizard's sign-in is the administrator's last sign-in", func(t *testing.T) {
		body := b.get(t, "/api/v1/auth/me", 200)
		require.NotNil(t, body["user"].(map[string]any)["lastLoginAt"], "the profile said \"Last sign-in: Never\" for the signed-in administrator")
	})
	t.Run("setup runs once", func(t *testing.T) {
		b.fails(t, "POST", "/api/v1/setup", adminJSON, 409, "conflict")
	})
	t.Run("the session reads the profile and administration", func(t *testing.T) {
		body := b.get(t, "/api/v1/auth/me", 200)
		require.Equal(t, "admin", body["user"].(map[string]any)["username"])
		b.get(t, "/api/v1/admin/encryption/status", 200)
	})
	t.Run("a cookie-authenticated change from another site is refused", func(t *testing.T) {
		b.withOrigin("http://evil.example").fails(t, "POST", "/api/v1/auth/logout", nil, 403, "permission_denied")
	})
	t.Run("sign-out ends the session", func(t *testing.T) {
		b.post(t, "/api/v1/auth/logout", nil, 204)
		b.fails(t, "GET", "/api/v1/auth/me", nil, 401, "unauthenticated")
	})

	anon := ts.browser(t)
	var message any
	step(t, "every sign-in failure is the same 401", func(t *testing.T) {
		var messages []any
		for _, creds := range []string{
			`{"username":"nobody","password":"whatever it is"}`,
			`{"username":"admin","password":"wrong password!"}`,
		} {
			body := anon.fails(t, "POST", "/api/v1/auth/login", creds, 401, "unauthenticated")
			messages = append(messages, body["message"])
		}
		require.Equal(t, messages[0], messages[1])
		message = messages[0]
	})
	t.Run("the third consecutive wrong password locks the account, even for the right one", func(t *testing.T) {
		for range 2 {
			anon.post(t, "/api/v1/auth/login", `{"username":"admin","password":"wrong again!!"}`, 401)
		}
		body := anon.fails(t, "POST", "/api/v1/auth/login", `{"username":"admin","password":"correct horse battery"}`, 401, "unauthenticated")
		require.Equal(t, message, body["message"])
	})

	// Signing in by e-mail works for an account that is not locked: a fresh installation.
	other := startServer(t)
	ob := other.admin(t)
	var fresh *apiClient
	step(t, "signing in by e-mail works", func(t *testing.T) {
		fresh = other.login(t, "ADMIN@example.com", "correct horse battery")
	})
	step(t, "a user changes their password", func(t *testing.T) {
		fresh.post(t, "/api/v1/auth/password", `{"currentPassword":"correct horse battery","newPassword":"another long passphrase"}`, 204)
	})
	t.Run("changing the password ends the other sessions", func(t *testing.T) {
		res, _ := ob.do(t, "GET", "/api/v1/auth/me", nil)
		require.Equal(t, 401, res.StatusCode, "changing the password ends the other sessions")
	})
	t.Run("changing the password keeps the session that changed it", func(t *testing.T) {
		res, _ := fresh.do(t, "GET", "/api/v1/auth/me", nil)
		require.Equal(t, 200, res.StatusCode, "but not the one that changed it")
	})
}

func timeNow() time.Time { return time.Now() }

func TestUpdateOwnProfile(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	b := ts.browser(t)
	var version any
	step(t, "setup signs the administrator in", func(t *testing.T) {
		body := b.post(t, "/api/v1/setup", adminJSON, 201)
		version = body["user"].(map[string]any)["version"]
	})
	t.Run("reading the profile does not touch the cookie", func(t *testing.T) {
		res, _ := b.do(t, "GET", "/api/v1/auth/me", nil)
		require.Equal(t, 200, res.StatusCode)
		require.Empty(t, res.Header.Values("Set-Cookie"), "reading the profile does not touch the cookie")
	})
	step(t, "a user changes their name and e-mail", func(t *testing.T) {
		res, body := b.do(t, "PATCH", "/api/v1/auth/me", fmt.Sprintf(`{"version":%v,"displayName":"Ada L.","email":"ada@example.com"}`, version))
		require.Equal(t, 200, res.StatusCode, body)
		require.Empty(t, res.Header.Values("Set-Cookie"))
		u := body["user"].(map[string]any)
		require.Equal(t, "Ada L.", u["displayName"])
		require.Equal(t, "ada@example.com", u["email"])
		require.Contains(t, body["permissions"], "admin.users")
	})
	t.Run("a change with a stale version conflicts", func(t *testing.T) {
		b.fails(t, "PATCH", "/api/v1/auth/me", fmt.Sprintf(`{"version":%v,"displayName":"Stale"}`, version), 409, "version_conflict")
	})
	t.Run("roles and active are not the user's to change", func(t *testing.T) {
		b.fails(t, "PATCH", "/api/v1/auth/me", `{"version":2,"active":false}`, 400, "validation_failed")
	})
}

// TestSessionsWorkAcrossReplicas: two servers on one database with the same JWT_SECRET
// accept each other's session cookies, and a logout on one ends the session on both.
func TestSessionsWorkAcrossReplicas(t *testing.T) {
	t.Parallel()
	secret := "JWT_SECRET=replica-shared-secret-0123456789abcdef"
	a := startServer(t, secret)
	b := startServerOn(t, a.dsn, secret)
	onA := a.admin(t)
	cookies := onA.http.Jar.Cookies(mustURL(t, a.url))
	require.NotEmpty(t, cookies)

	onB := b.browser(t)
	onB.http.Jar.SetCookies(mustURL(t, b.url), cookies)
	t.Run("a session from one replica works on the other", func(t *testing.T) {
		onB.get(t, "/api/v1/auth/me", 200)
	})
	t.Run("a logout on one replica ends the session everywhere", func(t *testing.T) {
		onB.post(t, "/api/v1/auth/logout", nil, 204)
		// The session row is shared and cached sessions are invalidated on every replica
		// (within a second; at once on the replica that ended it).
		require.Eventually(t, func() bool {
			res, _ := onA.do(t, "GET", "/api/v1/auth/me", nil)
			return res.StatusCode == 401
		}, time.Second, 10*time.Millisecond, "logout on one replica ends the session everywhere")
	})
}

func mustURL(t *testing.T, raw string) *url.URL {
	u, err := url.Parse(raw)
	require.NoError(t, err)
	return u
}

// TestCreatedTimesMatchLaterReads: a create answers the record's times as every later
// read does — to the microsecond PostgreSQL keeps, not with the server clock's extra
// nanoseconds — so a client can compare what it created with what it reads back.
func TestCreatedTimesMatchLaterReads(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	for range 3 { // a clock reading on an exact microsecond would pass by chance
		inv := admin.post(t, "/api/v1/admin/invites", `{"intendedRole":"assessee"}`, http.StatusCreated)
		listed := admin.get(t, "/api/v1/admin/invites?limit=1", http.StatusOK)["items"].([]any)[0].(map[string]any)
		require.Equal(t, inv["id"], listed["id"])
		require.Equal(t, listed["createdAt"], inv["createdAt"])
		require.Equal(t, listed["expiresAt"], inv["expiresAt"])

		key := admin.post(t, "/api/v1/me/api-keys", `{"name":"times"}`, http.StatusCreated)["apiKey"].(map[string]any)
		keys := admin.get(t, "/api/v1/me/api-keys", http.StatusOK)["items"].([]any)
		require.Equal(t, key["id"], keys[0].(map[string]any)["id"])
		require.Equal(t, keys[0].(map[string]any)["createdAt"], key["createdAt"])
	}
}
