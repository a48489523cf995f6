package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/logging"
)

// fakeSetup and fakeCheck stand in for the database in HTTP-layer tests; the real store
// is exercised end to end in cmd/server.
type fakeSetup struct{ done atomic.Bool }

func (f *fakeSetup) SetupComplete(context.Context) (bool, error) { return f.done.Load(), nil }

type fakeCheck struct{ err error }

func (f *fakeCheck) CheckHealth(context.Context) error { return f.err }

type thingInput struct {
	Body struct {
		Name  string `json:"name" minLength:"1" maxLength:"10"`
		Count int    `json:"count,omitempty" minimum:"0"`
	}
}

type thingOutput struct {
	Body struct {
		Name string `json:"name"`
	}
}

type permAuthorizer struct{ granted assess.Perm }

func (a permAuthorizer) Authorize(r *http.Request, perm assess.Perm) (context.Context, error) {
	if r.Header.Get("Authorization") == "" {
		return nil, assess.Errorf(assess.ECodeUnauthenticated, "Authentication is required.")
	}
	if perm != a.granted {
		return nil, assess.Errorf(assess.ECodePermissionDenied, "This action requires the permission %s.", perm)
	}
	return r.Context(), nil
}

type harness struct {
	srv   *Server
	setup *fakeSetup
	db    *fakeCheck
	logs  *bytes.Buffer
}

func newHarness(t *testing.T, auth Authorizer) *harness {
	t.Helper()
	h := &harness{setup: &fakeSetup{}, db: &fakeCheck{}, logs: &bytes.Buffer{}}
	h.setup.done.Store(true)
	log := logging.New(h.logs, slog.LevelDebug)
	prev := slog.Default()
	slog.SetDefault(log)
	t.Cleanup(func() { slog.SetDefault(prev) })
	h.srv = New(Config{Version: "test", StartedAt: time.Now(), MaxBodyBytes: 256, CORSOrigins: []string{"http://ui.example"}},
		Deps{Logger: log, Database: h.db, Setup: h.setup, Authorizer: auth,
			Web: fstest.MapFS{
				"index.html":         {Data: []byte("<html>app</html>")},
				"assets/app-1.js":    {Data: []byte("console.log(1)")},
				"apidocs/index.html": {Data: []byte("<html>docs</html>")},
			}})
	register(h.srv, Op{Permission: assess.PermPublic, Operation: huma.Operation{
		OperationID: "createThing", Method: http.MethodPost, Path: "/api/v1/things"}},
		func(_ context.Context, in *thingInput) (*thingOutput, error) {
			switch in.Body.Name {
			case "boom":
				return nil, errors.New("pq: secret internals")
			case "panic":
				panic("kaboom")
			case "dup":
				return nil, assess.Errorf(assess.ECodeAlreadyExists, "A thing with this name exists.")
			}
			out := &thingOutput{}
			out.Body.Name = in.Body.Name
			return out, nil
		})
	register(h.srv, Op{Permission: "things.read", Operation: huma.Operation{
		OperationID: "listThings", Method: http.MethodGet, Path: "/api/v1/things"}},
		func(context.Context, *struct{}) (*thingOutput, error) { return &thingOutput{}, nil })
	return h
}

func (h *harness) do(t *testing.T, method, path, body string, hdr ...string) (*http.Response, map[string]any) {
	t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	h.srv.ServeHTTP(rec, req)
	res := rec.Result()
	raw, _ := io.ReadAll(res.Body)
	var m map[string]any
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		require.NoError(t, json.Unmarshal(raw, &m), string(raw))
	}
	return res, m
}

func requireEnvelope(t *testing.T, res *http.Response, body map[string]any, status int, code string) {
	t.Helper()
	require.Equal(t, status, res.StatusCode, body)
	require.Equal(t, "application/json; charset=utf-8", res.Header.Get("Content-Type"))
	require.Equal(t, code, body["error"])
	require.NotEmpty(t, body["message"])
	require.Equal(t, res.Header.Get(HeaderRequestID), body["requestId"])
	require.NotEmpty(t, body["requestId"])
}

func TestErrorEnvelopes(t *testing.T) {
	h := newHarness(t, nil)
	cases := []struct {
		name, method, path, body string
		status                   int
		code                     string
	}{
		{"malformed JSON", "POST", "/api/v1/things", `{"name":`, 400, "validation_failed"},
		{"unknown field", "POST", "/api/v1/things", `{"name":"a","colour":"red"}`, 400, "validation_failed"},
		{"schema violation", "POST", "/api/v1/things", `{"name":"this name is too long"}`, 400, "validation_failed"},
		{"oversized body", "POST", "/api/v1/things", `{"name":"` + strings.Repeat("x", 400) + `"}`, 413, "payload_too_large"},
		{"domain conflict", "POST", "/api/v1/things", `{"name":"dup"}`, 409, "already_exists"},
		{"internal error", "POST", "/api/v1/things", `{"name":"boom"}`, 500, "internal_error"},
		{"panic", "POST", "/api/v1/things", `{"name":"panic"}`, 500, "internal_error"},
		{"unknown api route", "GET", "/api/v1/nothing/here", "", 404, "not_found"},
		{"health with slash", "GET", "/api/health/", "", 404, "not_found"},
		{"wrong method", "DELETE", "/api/health", "", 405, "method_not_allowed"},
		{"no credential", "GET", "/api/v1/things", "", 401, "unauthenticated"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, body := h.do(t, tc.method, tc.path, tc.body)
			requireEnvelope(t, res, body, tc.status, tc.code)
			require.NotContains(t, body["message"], "secret internals")
		})
	}
	t.Run("an unknown field is named in the details", func(t *testing.T) {
		res, body := h.do(t, "POST", "/api/v1/things", `{"name":"a","colour":"red"}`)
		require.Equal(t, 400, res.StatusCode)
		details, _ := body["details"].([]any)
		require.NotEmpty(t, details)
		require.Equal(t, "colour", details[0].(map[string]any)["field"])
	})
	t.Run("a wrong method lists the allowed ones", func(t *testing.T) {
		res, _ := h.do(t, "DELETE", "/api/health", "")
		require.Equal(t, "GET, HEAD", res.Header.Get("Allow"))
	})
}

func TestInternalErrorsAreLoggedWithRequestID(t *testing.T) {
	h := newHarness(t, nil)
	res, body := h.do(t, "POST", "/api/v1/things", `{"name":"boom"}`, HeaderRequestID, "trace-me-1")
	require.Equal(t, 500, res.StatusCode)
	require.Equal(t, "trace-me-1", body["requestId"])
	res, _ = h.do(t, "POST", "/api/v1/things", `{"name":"panic"}`, HeaderRequestID, "trace-me-2")
	require.Equal(t, 500, res.StatusCode)
	logs := h.logs.String()
	require.Contains(t, logs, `"request_id":"trace-me-1"`)
	require.Contains(t, logs, "pq: secret internals")
	require.Contains(t, logs, `"request_id":"trace-me-2"`)
	require.Contains(t, logs, "kaboom")
	require.Contains(t, logs, `"stack"`)
}

func TestRequestID(t *testing.T) {
	h := newHarness(t, nil)
	t.Run("a well-formed client id is kept", func(t *testing.T) {
		res, _ := h.do(t, "GET", "/api/health", "", HeaderRequestID, "client-id_1.2:3")
		require.Equal(t, "client-id_1.2:3", res.Header.Get(HeaderRequestID))
	})
	for _, bad := range []struct{ name, id string }{
		{"a space", "has space"},
		{"too long", strings.Repeat("a", 129)},
		{"a newline", "new\nline"},
		{"markup", "<script>"},
	} {
		t.Run("a client id with "+bad.name+" is replaced", func(t *testing.T) {
			res, _ := h.do(t, "GET", "/api/health", "", HeaderRequestID, bad.id)
			got := res.Header.Get(HeaderRequestID)
			require.NotEqual(t, bad.id, got)
			require.Len(t, got, 32)
		})
	}
}

func TestPermissionHook(t *testing.T) {
	h := newHarness(t, permAuthorizer{granted: "other.perm"})
	t.Run("without a credential", func(t *testing.T) {
		res, body := h.do(t, "GET", "/api/v1/things", "")
		requireEnvelope(t, res, body, 401, "unauthenticated")
	})
	t.Run("without the permission, which the message names", func(t *testing.T) {
		res, body := h.do(t, "GET", "/api/v1/things", "", "Authorization", "Bearer x")
		requireEnvelope(t, res, body, 403, "permission_denied")
		require.Contains(t, body["message"], "things.read")
	})

	granted := newHarness(t, permAuthorizer{granted: "things.read"})
	t.Run("with the permission", func(t *testing.T) {
		res, _ := granted.do(t, "GET", "/api/v1/things", "", "Authorization", "Bearer x")
		require.Equal(t, 200, res.StatusCode)
	})
}

func TestSetupGate(t *testing.T) {
	h := newHarness(t, nil)
	h.setup.done.Store(false)
	t.Run("an operation points to setup", func(t *testing.T) {
		res, body := h.do(t, "GET", "/api/v1/things", "")
		requireEnvelope(t, res, body, 503, "setup_required")
		require.Contains(t, body["message"], "/setup")
	})
	t.Run("an unknown API route points to setup", func(t *testing.T) {
		res, body := h.do(t, "GET", "/api/v1/no/such/route", "")
		requireEnvelope(t, res, body, 503, "setup_required")
	})
	for _, open := range []string{"/api/health", "/api/v1/setup/status", "/api/v1/openapi.json", "/api/v1/docs", "/", "/setup"} {
		t.Run("open before setup: "+open, func(t *testing.T) {
			res, _ := h.do(t, "GET", open, "")
			require.Equal(t, 200, res.StatusCode, open)
		})
	}
	t.Run("the setup status says where to go", func(t *testing.T) {
		_, body := h.do(t, "GET", "/api/v1/setup/status", "")
		require.Equal(t, false, body["setupComplete"])
		require.Equal(t, "/setup", body["setupUrl"])
	})
}

func TestHealth(t *testing.T) {
	h := newHarness(t, nil)
	t.Run("healthy", func(t *testing.T) {
		res, body := h.do(t, "GET", "/api/health", "")
		require.Equal(t, 200, res.StatusCode)
		require.Equal(t, "ok", body["status"])
		require.Equal(t, "test", body["version"])
		require.Equal(t, "ok", body["database"])
		require.Equal(t, "ok", body["storage"])
		require.IsType(t, float64(0), body["uptime"])
	})
	t.Run("the database is down", func(t *testing.T) {
		h.db.err = errors.New("connection refused")
		res, body := h.do(t, "GET", "/api/health", "")
		require.Equal(t, 503, res.StatusCode)
		require.Equal(t, map[string]any{"status": "error", "database": "error", "message": "database check failed"}, body)
	})
}

func TestSPAAndSecurityHeaders(t *testing.T) {
	h := newHarness(t, nil)
	t.Run("a deep link serves the application with the security headers", func(t *testing.T) {
		res, _ := h.do(t, "GET", "/deep/link/page", "")
		require.Equal(t, 200, res.StatusCode)
		require.Equal(t, "no-cache", res.Header.Get("Cache-Control"))
		require.Contains(t, res.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'")
		require.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"))
		require.NotEmpty(t, res.Header.Get("Referrer-Policy"))
	})
	t.Run("hashed assets are cached for good", func(t *testing.T) {
		res, _ := h.do(t, "GET", "/assets/app-1.js", "")
		require.Equal(t, 200, res.StatusCode)
		require.Contains(t, res.Header.Get("Cache-Control"), "immutable")
	})
	t.Run("a page does not take a POST", func(t *testing.T) {
		res, body := h.do(t, "POST", "/some/page", "")
		requireEnvelope(t, res, body, 405, "method_not_allowed")
	})
}

func TestCORS(t *testing.T) {
	h := newHarness(t, nil)
	t.Run("a configured origin's preflight is allowed with credentials", func(t *testing.T) {
		res, _ := h.do(t, "OPTIONS", "/api/v1/things", "", "Origin", "http://ui.example", "Access-Control-Request-Method", "POST")
		require.Equal(t, 204, res.StatusCode)
		require.Equal(t, "http://ui.example", res.Header.Get("Access-Control-Allow-Origin"))
		require.Equal(t, "true", res.Header.Get("Access-Control-Allow-Credentials"))
	})
	t.Run("another origin is not allowed", func(t *testing.T) {
		res, _ := h.do(t, "GET", "/api/health", "", "Origin", "http://evil.example")
		require.Empty(t, res.Header.Get("Access-Control-Allow-Origin"))
	})
}

func TestTrustProxyHops(t *testing.T) {
	var seen Client
	probe := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { seen = ClientFrom(r.Context()) })
	req := func(hops int) Client {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = "10.0.0.9:5555"
		r.Header.Set("X-Forwarded-For", "6.6.6.6, 1.2.3.4, 10.0.0.2")
		r.Header.Set("X-Forwarded-Proto", "https")
		clientInfo(hops)(probe).ServeHTTP(httptest.NewRecorder(), r)
		return seen
	}
	t.Run("no hop trusted: the peer, over its own scheme", func(t *testing.T) {
		require.Equal(t, Client{IP: "10.0.0.9", Scheme: "http", Host: "example.com"}, req(0))
	})
	t.Run("one hop: the proxy's peer", func(t *testing.T) {
		require.Equal(t, "10.0.0.2", req(1).IP)
	})
	t.Run("two hops: the next address and the forwarded scheme", func(t *testing.T) {
		require.Equal(t, "1.2.3.4", req(2).IP)
		require.Equal(t, "https", req(2).Scheme)
	})
	t.Run("more hops than addresses: the first address", func(t *testing.T) {
		require.Equal(t, "6.6.6.6", req(9).IP)
	})
}
