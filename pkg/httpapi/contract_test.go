package httpapi

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestMissingWebFilesAreNotFound(t *testing.T) {
	h := newHarness(t, nil)
	for _, c := range []struct {
		path   string
		status int
		html   bool
	}{
		{"/assets/app-1.js", 200, false},
		{"/assets/index-OLD.js", 404, false},
		{"/assets/no-extension", 404, false},
		{"/favicon.ico", 404, false},
		{"/admin/users", 200, true},
		{"/", 200, true},
	} {
		t.Run(c.path, func(t *testing.T) {
			res, _ := h.do(t, "GET", c.path, "")
			require.Equal(t, c.status, res.StatusCode)
			require.Equal(t, c.html, strings.HasPrefix(res.Header.Get("Content-Type"), "text/html"), res.Header.Get("Content-Type"))
		})
	}
}

func TestHeadIsAnsweredLikeGet(t *testing.T) {
	h := newHarness(t, permAuthorizer{granted: "things.read"})
	res, _ := h.do(t, "HEAD", "/api/v1/things", "", "Authorization", "Bearer x")
	require.Equal(t, http.StatusOK, res.StatusCode)
	body, _ := io.ReadAll(res.Body)
	require.Empty(t, body)
	res, _ = h.do(t, "PUT", "/api/v1/things", "")
	require.Equal(t, "GET, HEAD, POST", res.Header.Get("Allow"))
}

func TestErrorHeaders(t *testing.T) {
	h := newHarness(t, permAuthorizer{granted: "things.read"})
	for _, c := range []struct {
		name, method, path, body string
		hdr                      []string
		status                   int
	}{
		{"a 401 from the authorizer", "GET", "/api/v1/things", "", nil, 401},
		{"a 400 from validation", "POST", "/api/v1/things", `{"name":""}`, nil, 400},
		{"a 409 from a handler", "POST", "/api/v1/things", `{"name":"dup"}`, nil, 409},
		{"a 415", "POST", "/api/v1/things", `name=x`, []string{"Content-Type", "text/plain"}, 415},
		{"a 404 of the platform", "GET", "/api/v1/nothing", "", nil, 404},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, body := h.do(t, c.method, c.path, c.body, c.hdr...)
			require.Equal(t, c.status, res.StatusCode, body)
			require.Equal(t, "no-store", res.Header.Get("Cache-Control"))
			if c.status == http.StatusUnauthorized {
				require.Equal(t, wwwAuthenticate, res.Header.Get("WWW-Authenticate"))
			} else {
				require.Empty(t, res.Header.Get("WWW-Authenticate"))
			}
			require.NotEqual(t, "Validation failed.", body["message"])
		})
	}
}

func TestBearerToken(t *testing.T) {
	for in, want := range map[string]string{
		"Bearer abc": "abc", "bearer abc": "abc", "BEARER  abc ": "abc", "Basic abc": "", "Bearer": "", "": "", "Bearerabc": "",
	} {
		require.Equal(t, want, bearerToken(in), in)
	}
}

func TestUnknownRoutesPassTheRateLimiter(t *testing.T) {
	h := newHarness(t, nil)
	var seen []string
	h.srv = New(h.srv.cfg, Deps{Logger: h.srv.dep.Logger, Database: h.db, Setup: h.setup, Web: h.srv.dep.Web,
		RateLimit: func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				seen = append(seen, r.Method+" "+r.URL.Path)
				next.ServeHTTP(w, r)
			})
		}})
	for _, p := range []string{"/api/v1/nothing", "/api/health", "/api/v1/openapi.json", "/api/v1/docs", "/some/page"} {
		h.do(t, "GET", p, "")
	}
	h.do(t, "DELETE", "/api/v1/setup/status", "")
	require.Equal(t, []string{"GET /api/v1/nothing", "DELETE /api/v1/setup/status"}, seen)
}

func TestParseServerError(t *testing.T) {
	for _, c := range []struct {
		in     string
		status int
		text   string
		ok     bool
	}{
		{"HTTP/1.1 400 Bad Request" + serverErrorHeaders + "400 Bad Request", 400, "", true},
		{"HTTP/1.1 400 Bad Request: invalid header name" + serverErrorHeaders + "400 Bad Request: invalid header name", 400, "invalid header name", true},
		{"HTTP/1.1 431 Request Header Fields Too Large" + serverErrorHeaders + "431 Request Header Fields Too Large", 431, "", true},
		{"HTTP/1.1 400 Bad Request\r\nDate: x" + serverErrorHeaders + "x", 0, "", false},
		{"HTTP/1.1 200 OK" + serverErrorHeaders + "fine", 0, "", false},
		{"HTTP/1.1 400 Bad Request" + serverErrorHeaders + "two\r\nlines", 0, "", false},
		{`{"json":"body"}`, 0, "", false},
	} {
		status, text, ok := parseServerError([]byte(c.in))
		require.Equal(t, c.ok, ok, c.in)
		require.Equal(t, c.status, status, c.in)
		require.Equal(t, c.text, text, c.in)
	}
}

// TestEnvelopeListener: what net/http refuses before any handler runs is answered with
// the envelope too.
func TestEnvelopeListener(t *testing.T) {
	h := newHarness(t, nil)
	srv := httptest.NewUnstartedServer(h.srv)
	srv.Listener = EnvelopeListener(srv.Listener, slog.New(slog.DiscardHandler))
	srv.Start()
	t.Cleanup(srv.Close)
	for _, c := range []struct{ name, request string }{
		{"a broken escape in the path", "GET /api/v1/users/%ZZ HTTP/1.1\r\nHost: x\r\n\r\n"},
		{"a malformed header", "GET /api/health HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n"},
		{"no Host header", "GET /api/health HTTP/1.1\r\n\r\n"},
		{"headers too large", "GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("a", 2<<20) + "\r\n\r\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", srv.Listener.Addr().String())
			require.NoError(t, err)
			defer conn.Close()
			go fmt.Fprint(conn, c.request)
			res, err := http.ReadResponse(bufio.NewReader(conn), nil)
			require.NoError(t, err)
			defer res.Body.Close()
			var body map[string]any
			require.NoError(t, json.NewDecoder(res.Body).Decode(&body))
			require.GreaterOrEqual(t, res.StatusCode, 400)
			requireEnvelope(t, res, body, res.StatusCode, "validation_failed")
			require.Equal(t, "no-store", res.Header.Get("Cache-Control"))
		})
	}
	t.Run("a good request is untouched", func(t *testing.T) {
		res, err := http.Get(srv.URL + "/api/health")
		require.NoError(t, err)
		defer res.Body.Close()
		require.Equal(t, http.StatusOK, res.StatusCode)
	})
}
