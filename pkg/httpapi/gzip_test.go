package httpapi

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"
)

func TestCompressJSON(t *testing.T) {
	big := `{"items":["` + strings.Repeat("x", 4000) + `"]}`
	h := compressJSON(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/big":
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, big[:100])
			_, _ = io.WriteString(w, big[100:])
		case "/small":
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"n":1}`)
		case "/file":
			w.Header().Set("Content-Type", "application/pdf")
			_, _ = io.WriteString(w, big)
		case "/empty":
			w.WriteHeader(http.StatusNoContent)
		}
	}))
	get := func(path, accept string) *http.Response {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		if accept != "" {
			req.Header.Set("Accept-Encoding", accept)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Result()
	}
	t.Run("a large JSON answer is compressed", func(t *testing.T) {
		res := get("/big", "br, gzip")
		require.Equal(t, "gzip", res.Header.Get("Content-Encoding"))
		require.Contains(t, res.Header.Values("Vary"), "Accept-Encoding")
		zr, err := gzip.NewReader(res.Body)
		require.NoError(t, err)
		plain, err := io.ReadAll(zr)
		require.NoError(t, err)
		require.Equal(t, big, string(plain))
	})
	for name, c := range map[string]struct{ path, accept string }{
		"without Accept-Encoding": {"/big", ""},
		"gzip refused with q=0":   {"/big", "gzip;q=0"},
		"a small answer":          {"/small", "gzip"},
		"a file":                  {"/file", "gzip"},
		"no content":              {"/empty", "gzip"},
	} {
		t.Run(name+" is sent as it is", func(t *testing.T) {
			res := get(c.path, c.accept)
			require.Empty(t, res.Header.Get("Content-Encoding"))
			body, _ := io.ReadAll(res.Body)
			switch c.path {
			case "/big", "/file":
				require.Equal(t, big, string(body))
			case "/empty":
				require.Equal(t, http.StatusNoContent, res.StatusCode)
			}
		})
	}
}

// TestPrecompressedAssets: a file of the web build with a gzip twin is sent compressed to
// clients that accept gzip, with the original's type and cache policy; others get it plain.
func TestPrecompressedAssets(t *testing.T) {
	var gz strings.Builder
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write([]byte("console.log('hello')"))
	_ = zw.Close()
	srv := New(Config{Version: "test"}, Deps{Setup: &fakeSetup{}, Database: &fakeCheck{}, Web: fstest.MapFS{
		"index.html":         {Data: []byte("<html>app</html>")},
		"assets/app-1.js":    {Data: []byte("console.log('hello')")},
		"assets/app-1.js.gz": {Data: []byte(gz.String())},
	}})
	get := func(accept string) *http.Response {
		req := httptest.NewRequest(http.MethodGet, "/assets/app-1.js", nil)
		if accept != "" {
			req.Header.Set("Accept-Encoding", accept)
		}
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		return rec.Result()
	}
	res := get("gzip, deflate")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, "gzip", res.Header.Get("Content-Encoding"))
	require.Contains(t, res.Header.Get("Content-Type"), "javascript")
	require.Equal(t, "public, max-age=31536000, immutable", res.Header.Get("Cache-Control"))
	zr, err := gzip.NewReader(res.Body)
	require.NoError(t, err)
	plain, _ := io.ReadAll(zr)
	require.Equal(t, "console.log('hello')", string(plain))

	res = get("")
	require.Empty(t, res.Header.Get("Content-Encoding"))
	body, _ := io.ReadAll(res.Body)
	require.Equal(t, "console.log('hello')", string(body))
}
