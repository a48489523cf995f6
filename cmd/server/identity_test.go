package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// browser is a client with a cookie jar that sends the Origin header browsers send.
type browser struct {
	t      *testing.T
	ts     *testServer
	client *http.Client
	origin string
}

func newBrowser(t *testing.T, ts *testServer) *browser {
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	return &browser{t: t, ts: ts, client: &http.Client{Jar: jar}, origin: ts.url}
}

func (b *browser) do(method, path, body string) (*http.Response, map[string]any) {
	b.t.Helper()
	req, err := http.NewRequest(method, b.ts.url+path, strings.NewReader(body))
	require.NoError(b.t, err)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if b.origin != "" {
		req.Header.Set("Origin", b.origin)
	}
	res, err := b.client.Do(req)
	require.NoError(b.t, err)
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var m map[string]any
	if len(raw) > 0 && strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		require.NoError(b.t, json.Unmarshal(raw, &m), string(raw))
	}
	return res, m
}

const adminJSON = `{"username":"admin","email":"admin@example.com","displayName":"Ada Admin","password":"correct horse battery"}`

func TestSetupSignInAndSessions(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "LOGIN_MAX_FAILED_ATTEMPTS=3")
	b := newBrowser(t, ts)

	res, body := b.do("POST", "/api/v1/setup", `{"username":"admin","email":"admin@example.com","displayName":"A","password":"short"}`)
	requireEnvelope(t, res, body, 400, "validation_failed")
	require.Equal(t, "password", body["details"].([]any)[0].(map[string]any)["field"])

	res, body = b.do("POST", "/api/v1/setup", adminJSON)
	require.Equal(t, 201, res.StatusCode, body)
	cookie := res.Header.Get("Set-Cookie")
	require.Contains(t, cookie, "assay_session=")
	require.Contains(t, cookie, "HttpOnly")
	require.Contains(t, cookie, "SameSite=Lax")
	require.NotContains(t, cookie, "Secure", "plain HTTP in development: no Secure flag (COOKIE_SECURE=auto)")
	require.Contains(t, body["permissions"], "admin.encryption")
	require.Equal(t, []any{"admin"}, body["user"].(map[string]any)["roles"])

	res, body = b.do("POST", "/api/v1/setup", adminJSON)
	requireEnvelope(t, res, body, 409, "conflict")

	res, body = b.do("GET", "/api/v1/auth/me", "")
	require.Equal(t, 200, res.StatusCode)
	require.Equal(t, "admin", body["user"].(map[string]any)["username"])
	res, body = b.do("GET", "/api/v1/admin/encryption/status", "")
	require.Equal(t, 200, res.StatusCode, body)

	// A cookie-authenticated change from another site is refused.
	b.origin = "http://evil.example"
	res, body = b.do("POST", "/api/v1/auth/logout", "")
	requireEnvelope(t, res, body, 403, "permission_denied")
	b.origin = ts.url

	res, _ = b.do("POST", "/api/v1/auth/logout", "")
	require.Equal(t, 204, res.StatusCode)
	res, body = b.do("GET", "/api/v1/auth/me", "")
	requireEnvelope(t, res, body, 401, "unauthenticated")

	// Every sign-in failure is the same 401.
	anon := newBrowser(t, ts)
	var messages []any
	for _, creds := range []string{
		`{"username":"nobody","password":"whatever it is"}`,
		`{"username":"admin","password":"wrong password!"}`,
	} {
		res, body := anon.do("POST", "/api/v1/auth/login", creds)
		requireEnvelope(t, res, body, 401, "unauthenticated")
		messages = append(messages, body["message"])
	}
	require.Equal(t, messages[0], messages[1])

	// The third consecutive wrong password locks the account: even the right one is refused.
	for range 2 {
		res, _ = anon.do("POST", "/api/v1/auth/login", `{"username":"admin","password":"wrong again!!"}`)
		require.Equal(t, 401, res.StatusCode)
	}
	res, body = anon.do("POST", "/api/v1/auth/login", `{"username":"admin","password":"correct horse battery"}`)
	requireEnvelope(t, res, body, 401, "unauthenticated")
	require.Equal(t, messages[0], body["message"])

	// Signing in by e-mail works for an account that is not locked: a fresh installation.
	other := startServer(t)
	ob := newBrowser(t, other)
	res, _ = ob.do("POST", "/api/v1/setup", adminJSON)
	require.Equal(t, 201, res.StatusCode)
	fresh := newBrowser(t, other)
	res, body = fresh.do("POST", "/api/v1/auth/login", `{"username":"ADMIN@example.com","password":"correct horse battery"}`)
	require.Equal(t, 200, res.StatusCode, body)
	res, _ = fresh.do("POST", "/api/v1/auth/password", `{"currentPassword":"correct horse battery","newPassword":"another long passphrase"}`)
	require.Equal(t, 204, res.StatusCode)
	res, _ = ob.do("GET", "/api/v1/auth/me", "")
	require.Equal(t, 401, res.StatusCode, "changing the password ends the other sessions")
	res, _ = fresh.do("GET", "/api/v1/auth/me", "")
	require.Equal(t, 200, res.StatusCode, "but not the one that changed it")
}

func timeNow() time.Time { return time.Now() }

func TestUpdateOwnProfile(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	b := newBrowser(t, ts)
	res, body := b.do("POST", "/api/v1/setup", adminJSON)
	require.Equal(t, 201, res.StatusCode)
	version := body["user"].(map[string]any)["version"]
	res, _ = b.do("GET", "/api/v1/auth/me", "")
	require.Equal(t, 200, res.StatusCode)
	require.Empty(t, res.Header.Values("Set-Cookie"), "reading the profile does not touch the cookie")

	res, body = b.do("PATCH", "/api/v1/auth/me", fmt.Sprintf(`{"version":%v,"displayName":"Ada L.","email":"ada@example.com"}`, version))
	require.Equal(t, 200, res.StatusCode, body)
	require.Empty(t, res.Header.Values("Set-Cookie"))
	u := body["user"].(map[string]any)
	require.Equal(t, "Ada L.", u["displayName"])
	require.Equal(t, "ada@example.com", u["email"])
	require.Contains(t, body["permissions"], "admin.users")

	res, body = b.do("PATCH", "/api/v1/auth/me", fmt.Sprintf(`{"version":%v,"displayName":"Stale"}`, version))
	requireEnvelope(t, res, body, 409, "version_conflict")
	res, body = b.do("PATCH", "/api/v1/auth/me", `{"version":2,"active":false}`)
	requireEnvelope(t, res, body, 400, "validation_failed") // roles and active are not the user's to change
}

// TestSessionsWorkAcrossReplicas: two servers on one database with the same JWT_SECRET
// accept each other's session cookies, and a logout on one ends the session on both.
func TestSessionsWorkAcrossReplicas(t *testing.T) {
	t.Parallel()
	secret := "JWT_SECRET=replica-shared-secret-0123456789abcdef"
	a := startServer(t, secret)
	b := startServerOn(t, a.dsn, secret)
	browser := newBrowser(t, a)
	res, _ := browser.do("POST", "/api/v1/setup", adminJSON)
	require.Equal(t, 201, res.StatusCode)
	cookies := browser.client.Jar.Cookies(mustURL(t, a.url))
	require.NotEmpty(t, cookies)

	onB := newBrowser(t, b)
	onB.client.Jar.SetCookies(mustURL(t, b.url), cookies)
	res, body := onB.do("GET", "/api/v1/auth/me", "")
	require.Equal(t, 200, res.StatusCode, body)
	res, _ = onB.do("POST", "/api/v1/auth/logout", "")
	require.Equal(t, 204, res.StatusCode)
	res, _ = browser.do("GET", "/api/v1/auth/me", "")
	require.Equal(t, 401, res.StatusCode, "the session row is shared: logout on one replica ends it everywhere")
}

func mustURL(t *testing.T, raw string) *url.URL {
	u, err := url.Parse(raw)
	require.NoError(t, err)
	return u
}
