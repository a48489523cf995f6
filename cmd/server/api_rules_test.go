package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCredentialRules: the Bearer scheme is matched in any letter case (RFC 9110), and
// every 401 tells the client how to authenticate.
func TestCredentialRules(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	token := ts.newAPIKey(t, admin)

	for _, scheme := range []string{"Bearer", "bearer", "BEARER"} {
		t.Run("Authorization: "+scheme+" is accepted", func(t *testing.T) {
			c := &apiClient{ts: ts, http: http.DefaultClient, header: http.Header{"Authorization": {scheme + " " + token}}}
			res, body := c.do(t, "GET", "/api/v1/auth/me", nil)
			require.Equal(t, http.StatusOK, res.StatusCode, body)
		})
	}

	for _, c := range []struct {
		name, method, path string
		body               any
	}{
		{"no credential", "GET", "/api/v1/auth/me", nil},
		{"a wrong password", "POST", "/api/v1/auth/login", map[string]any{"username": "admin", "password": "wrong password"}},
	} {
		t.Run("a 401 for "+c.name+" carries the challenge", func(t *testing.T) {
			res, body := ts.browser(t).do(t, c.method, c.path, c.body)
			requireEnvelope(t, res, body, http.StatusUnauthorized, "unauthenticated")
			require.True(t, strings.HasPrefix(res.Header.Get("WWW-Authenticate"), "Bearer realm="), res.Header)
			require.Equal(t, "no-store", res.Header.Get("Cache-Control"))
		})
	}
	t.Run("a bad API key's 401 carries the challenge", func(t *testing.T) {
		res, body := ts.bearerClient("assay_not_a_key").do(t, "GET", "/api/v1/auth/me", nil)
		requireEnvelope(t, res, body, http.StatusUnauthorized, "unauthenticated")
		require.NotEmpty(t, res.Header.Get("WWW-Authenticate"))
	})
}

// TestAccountRules: creating a user takes roles optionally (assessee by default, as the
// description says) and needs a display name, as the web application does.
func TestAccountRules(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	doc := ts.openAPIDocument(t)

	t.Run("the description does not require roles", func(t *testing.T) {
		schemas := doc["components"].(map[string]any)["schemas"].(map[string]any)
		required, _ := schemas["NewUser"].(map[string]any)["required"].([]any)
		require.NotContains(t, required, "roles")
		require.Contains(t, required, "displayName")
	})
	t.Run("a user created without roles is an assessee", func(t *testing.T) {
		body := admin.post(t, "/api/v1/users", map[string]any{
			"username": "noroles", "email": "noroles@example.com", "displayName": "No Roles", "password": fixturePassword,
		}, http.StatusCreated)
		require.Equal(t, []any{"assessee"}, body["roles"])
	})
	for _, blank := range []string{"", "   "} {
		t.Run("a blank display name is refused on creation: "+`"`+blank+`"`, func(t *testing.T) {
			body := admin.fails(t, "POST", "/api/v1/users", map[string]any{
				"username": "blankname", "email": "blank@example.com", "displayName": blank, "password": fixturePassword,
			}, http.StatusBadRequest, "validation_failed")
			require.Equal(t, "displayName", detailField(t, body))
		})
	}
	t.Run("a blank display name is refused on update", func(t *testing.T) {
		u, _ := ts.newUser(t)
		current := admin.get(t, "/api/v1/users/"+u.ID, http.StatusOK)
		body := admin.fails(t, "PATCH", "/api/v1/users/"+u.ID, map[string]any{"version": current["version"], "displayName": " "},
			http.StatusBadRequest, "validation_failed")
		require.Equal(t, "displayName", detailField(t, body))
	})
}

// TestMissingFilesAreNotTheApplication: a file the web build lacks (an old hashed bundle,
// a favicon) is 404, not the application's HTML with 200.
func TestMissingFilesAreNotTheApplication(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	ts.admin(t)
	for _, path := range []string{"/assets/index-OLD.js", "/favicon.ico", "/robots.txt"} {
		t.Run(path, func(t *testing.T) {
			res, _ := ts.request(t, "GET", path, "")
			require.Equal(t, http.StatusNotFound, res.StatusCode)
			require.NotContains(t, res.Header.Get("Content-Type"), "text/html")
		})
	}
}
