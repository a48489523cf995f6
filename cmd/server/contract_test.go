package main

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// openAPIDocument fetches the running server's API description.
func (ts *testServer) openAPIDocument(t *testing.T) map[string]any {
	t.Helper()
	res, doc := ts.request(t, "GET", "/api/v1/openapi.json", "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	return doc
}

// operations returns the operations of an API description by "METHOD /path".
func operations(doc map[string]any) map[string]map[string]any {
	out := map[string]map[string]any{}
	for path, item := range doc["paths"].(map[string]any) {
		for method, op := range item.(map[string]any) {
			out[strings.ToUpper(method)+" "+path] = op.(map[string]any)
		}
	}
	return out
}

// TestErrorAnswersKeepTheContract: every error answer is the JSON envelope with a request
// id, a message written for people and Cache-Control: no-store, whoever writes it (the
// HTTP server itself, the platform middleware, huma or a handler), and the statuses it
// uses are the ones the API description lists.
func TestErrorAnswersKeepTheContract(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	key := ts.bearerClient(ts.newAPIKey(t, admin))
	doc := ts.openAPIDocument(t)
	ops := operations(doc)

	t.Run("sign-in documents its 401", func(t *testing.T) {
		require.Contains(t, ops["POST /api/v1/auth/login"]["responses"], "401")
	})
	t.Run("every operation with a body documents 413 and 415", func(t *testing.T) {
		for name, op := range ops {
			if _, ok := op["requestBody"]; !ok {
				continue
			}
			require.Contains(t, op["responses"], "413", name)
			require.Contains(t, op["responses"], "415", name)
		}
	})

	t.Run("a body that is not JSON is told what to send", func(t *testing.T) {
		res, body := key.do(t, "POST", "/api/v1/me/api-keys", `name=k`, "Content-Type", "text/plain")
		requireEnvelope(t, res, body, http.StatusUnsupportedMediaType, "unsupported_media_type")
		require.Equal(t, "Send the body as application/json.", body["message"])
		require.Equal(t, "no-store", res.Header.Get("Cache-Control"))
	})

	big := `{"name":"` + strings.Repeat("x", 2<<20) + `"}`
	var messages []string
	for _, c := range []struct {
		name    string
		chunked bool
	}{{"declared too large", false}, {"streamed too large", true}} {
		t.Run("a body "+c.name+" is the one 413 envelope", func(t *testing.T) {
			req, err := http.NewRequest("POST", ts.url+"/api/v1/me/api-keys", strings.NewReader(big))
			require.NoError(t, err)
			if c.chunked {
				req.ContentLength = -1
				req.Body = io.NopCloser(strings.NewReader(big))
			}
			req.Header.Set("Content-Type", "application/json")
			res, body := key.sendWithCredential(t, req)
			requireEnvelope(t, res, body, http.StatusRequestEntityTooLarge, "payload_too_large")
			require.Equal(t, "no-store", res.Header.Get("Cache-Control"))
			messages = append(messages, body["message"].(string))
		})
	}
	t.Run("both 413 answers say the same", func(t *testing.T) {
		require.Len(t, messages, 2)
		require.Equal(t, messages[0], messages[1])
	})

	t.Run("a path the HTTP server cannot parse is the envelope", func(t *testing.T) {
		res, body := key.rawRequest(t, "GET", "/api/v1/users/%ZZ", "")
		requireEnvelope(t, res, body, http.StatusBadRequest, "validation_failed")
		require.Equal(t, "no-store", res.Header.Get("Cache-Control"))
		require.Contains(t, body["message"], "percent-encoded")
	})

	for _, c := range []struct{ name, method, path, body string }{
		{"malformed text in the query", "GET", "/api/v1/users?q=%00", ""},
		{"invalid UTF-8 in a JSON body", "POST", "/api/v1/tags", "{\"name\": \"\xff\"}"},
	} {
		t.Run(c.name+" is counted and says so (issue 26 item 11)", func(t *testing.T) {
			res, body := key.rawRequest(t, c.method, c.path, c.body)
			requireEnvelope(t, res, body, http.StatusBadRequest, "validation_failed")
			require.NotEmpty(t, res.Header.Get("X-RateLimit-Limit"))
			require.NotEmpty(t, res.Header.Get("X-RateLimit-Remaining"))
			require.NotEmpty(t, res.Header.Get("X-RateLimit-Reset"))
		})
	}

	for _, c := range []struct{ name, method, path string }{
		{"an unknown API route", "GET", "/api/v1/no-such-thing"},
		{"a wrong method", "PUT", "/api/v1/users"},
	} {
		t.Run(c.name+" passes the rate limiter", func(t *testing.T) {
			res, body := key.do(t, c.method, c.path, nil)
			require.Contains(t, []int{404, 405}, res.StatusCode, body)
			require.NotEmpty(t, res.Header.Get("X-RateLimit-Limit"))
			require.NotEmpty(t, res.Header.Get("X-RateLimit-Remaining"))
		})
	}

	t.Run("HEAD on a read is answered like GET without a body", func(t *testing.T) {
		req, err := http.NewRequest("HEAD", ts.url+"/api/v1/users", nil)
		require.NoError(t, err)
		res, _ := key.sendWithCredential(t, req)
		require.Equal(t, http.StatusOK, res.StatusCode)
		require.Equal(t, "application/json; charset=utf-8", res.Header.Get("Content-Type"))
		require.NotEmpty(t, res.Header.Get("X-Request-Id"))
	})
	t.Run("a wrong method lists HEAD beside GET", func(t *testing.T) {
		res, _ := key.do(t, "PUT", "/api/v1/users", nil)
		require.Equal(t, "GET, HEAD, POST", res.Header.Get("Allow"))
	})

	for _, c := range []struct {
		name, method, path string
		body               any
		leak               string
	}{
		{"a malformed time", "GET", "/api/v1/audit?from=yesterday", nil, "2006"},
		{"a malformed e-mail address", "POST", "/api/v1/users", map[string]any{
			"username": "mailless", "email": "nope", "displayName": "M", "password": fixturePassword}, "mail:"},
	} {
		t.Run(c.name+" is explained without Go internals", func(t *testing.T) {
			res, body := key.do(t, c.method, c.path, c.body)
			requireEnvelope(t, res, body, http.StatusBadRequest, "validation_failed")
			raw, _ := json.Marshal(body)
			require.NotContains(t, string(raw), c.leak)
		})
	}
}

// sendWithCredential sends req with c's credential headers.
func (c *apiClient) sendWithCredential(t testing.TB, req *http.Request) (*http.Response, map[string]any) {
	t.Helper()
	for name, values := range c.header {
		req.Header[name] = values
	}
	return c.send(t, req)
}

// allowsNull reports whether the schema of property prop of component schema name in the
// API description admits null.
func allowsNull(doc map[string]any, name, prop string) bool {
	schema, _ := doc["components"].(map[string]any)["schemas"].(map[string]any)[name].(map[string]any)
	p, _ := schema["properties"].(map[string]any)[prop].(map[string]any)
	if types, ok := p["type"].([]any); ok && slices.Contains(types, any("null")) {
		return true
	}
	for _, alt := range append(asList(p["anyOf"]), asList(p["oneOf"])...) {
		if m, _ := alt.(map[string]any); m["type"] == "null" {
			return true
		}
	}
	return false
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// TestNullsTheAnswersSendAreDescribed: fields the API answers with null — evidence
// without a reviewer, an attachment whose uploader's account is gone, a note whose author's
// account is gone, a signatory slot pinned to nobody — are nullable in the API description,
// so the typed clients generated from it do not claim a value is always there (issue 26
// item 12).
func TestNullsTheAnswersSendAreDescribed(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	doc := ts.openAPIDocument(t)
	ev := admin.post(t, "/api/v1/evidence", map[string]any{"name": "Scan"}, http.StatusCreated)
	require.Nil(t, ev["reviewer"])
	require.Contains(t, ev, "reviewer")
	for _, c := range []struct{ schema, prop string }{
		{"Evidence", "reviewer"}, {"Attachment", "uploadedBy"}, {"EvidenceNote", "author"}, {"Signatory", "user"}, {"Signatory", "signedBy"},
	} {
		require.True(t, allowsNull(doc, c.schema, c.prop), "%s.%s is sent as null but described as never null", c.schema, c.prop)
	}
}
