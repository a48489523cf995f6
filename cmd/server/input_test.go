package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// rawRequest sends target (path and query) exactly as written, even when it is not a
// valid URL (http.NewRequest would refuse "%ZZ"), and decodes a JSON answer.
func (c *apiClient) rawRequest(t testing.TB, method, target, body string, hdr ...string) (*http.Response, map[string]any) {
	t.Helper()
	u, err := url.Parse(c.ts.url)
	require.NoError(t, err)
	u.Opaque = target
	req := &http.Request{Method: method, URL: u, Host: u.Host, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(body)),
		ContentLength: int64(len(body))}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for name, values := range c.header {
		req.Header[name] = values
	}
	if c.origin != "" {
		req.Header.Set("Origin", c.origin)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	return c.send(t, req)
}

// send sends req with c's HTTP client and decodes a JSON answer.
func (c *apiClient) send(t testing.TB, req *http.Request) (*http.Response, map[string]any) {
	t.Helper()
	res, err := c.http.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	var m map[string]any
	if len(raw) > 0 && strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		require.NoError(t, json.Unmarshal(raw, &m), string(raw))
	}
	return res, m
}

// requireInvalidField requires the 400 validation_failed envelope with a detail on field.
func requireInvalidField(t testing.TB, res *http.Response, body map[string]any, field string) {
	t.Helper()
	requireEnvelope(t, res, body, http.StatusBadRequest, "validation_failed")
	details, _ := body["details"].([]any)
	var fields []string
	for _, d := range details {
		f, _ := d.(map[string]any)["field"].(string)
		fields = append(fields, f)
	}
	require.Contains(t, fields, field, "the envelope names the field: %v", body)
}

// TestMalformedTextIsRefusedAtTheDoor: a NUL character or invalid UTF-8 anywhere in a
// request (JSON strings and keys, query names and values, the headers the service reads,
// the path) is refused with 400 validation_failed naming the field, before it can reach
// the database (which refuses 0x00) and turn into a 500. Escaped backslashes stay legal.
func TestMalformedTextIsRefusedAtTheDoor(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	anon := ts.browser(t)

	bodies := []struct {
		name, method, path, body, field string
		anonymous                       bool
	}{
		{"a NUL in a sign-in name, anonymously", "POST", "/api/v1/auth/login", `{"username":"ro\u0000ot","password":"whatever"}`, "username", true},
		{"a NUL in a registration", "POST", "/api/v1/auth/register", `{"username":"newbie","email":"n@example.com","displayName":"N\u0000","password":"long enough password"}`, "displayName", true},
		{"a NUL in a role description", "POST", "/api/v1/roles", `{"name":"auditor_x","description":"a\u0000b","permissions":[]}`, "description", false},
		{"a NUL in an array item", "POST", "/api/v1/roles", `{"name":"auditor_y","permissions":["admin.users","x\u0000"]}`, "permissions[1]", false},
		{"a NUL in an object key", "POST", "/api/v1/me/api-keys", `{"name":"k","na\u0000me":"x"}`, "na\uFFFDme", false},
		{"invalid UTF-8 in a string", "POST", "/api/v1/me/api-keys", "{\"name\":\"k\xff\xfe\"}", "name", false},
		{"invalid UTF-8 in a nested value", "PATCH", "/api/v1/auth/me", "{\"version\":1,\"displayName\":\"\xc3\"}", "displayName", false},
	}
	for _, c := range bodies {
		t.Run(c.name, func(t *testing.T) {
			client := admin
			if c.anonymous {
				client = anon
			}
			res, body := client.rawRequest(t, c.method, c.path, c.body)
			requireInvalidField(t, res, body, c.field)
		})
	}

	t.Run("an escaped backslash before u0000 is a legal string", func(t *testing.T) {
		res, body := admin.rawRequest(t, "POST", "/api/v1/me/api-keys", `{"name":"C:\\u0000dir"}`)
		require.Equal(t, http.StatusCreated, res.StatusCode, body)
		require.Equal(t, `C:\u0000dir`, body["apiKey"].(map[string]any)["name"])
	})

	queries := []struct{ name, target, field string }{
		{"a NUL in a search", "/api/v1/users?q=%00", "q"},
		{"invalid UTF-8 in a filter", "/api/v1/audit?action=%ff", "action"},
		{"invalid UTF-8 in a cursor", "/api/v1/me/api-keys?cursor=%ff%fe", "cursor"},
		{"a NUL in a parameter name", "/api/v1/users?q%00=1", "q\uFFFD"},
		{"a malformed escape", "/api/v1/users?q=%ZZ", "q"},
	}
	for _, c := range queries {
		t.Run(c.name, func(t *testing.T) {
			res, body := admin.rawRequest(t, "GET", c.target, "")
			requireInvalidField(t, res, body, c.field)
		})
	}

	t.Run("a NUL in a path parameter", func(t *testing.T) {
		res, body := admin.rawRequest(t, "GET", "/api/v1/users/u_%00", "")
		requireInvalidField(t, res, body, "id")
	})
	t.Run("invalid UTF-8 in a path parameter", func(t *testing.T) {
		res, body := admin.rawRequest(t, "DELETE", "/api/v1/users/"+admin.user.ID+"/api-keys/%ff", "")
		requireInvalidField(t, res, body, "keyId")
	})
	t.Run("invalid UTF-8 in a header the service reads", func(t *testing.T) {
		res, body := anon.rawRequest(t, "GET", "/api/v1/auth/me", "", "X-Api-Key", "assay_\xff")
		requireInvalidField(t, res, body, "X-Api-Key")
	})
}
