package httpapi

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCredentialKey(t *testing.T) {
	t.Parallel()
	hashOf := func(s string) string {
		sum := sha256.Sum256([]byte(s))
		return "cred:" + hex.EncodeToString(sum[:])[:32]
	}
	cases := []struct {
		name   string
		cookie string
		header []string
		want   string
	}{
		{name: "anonymous", want: "ip:192.0.2.7"},
		{name: "session cookie", cookie: "sess-value", want: hashOf("sess-value")},
		{name: "bearer token", header: []string{"Authorization", "Bearer ak_secret"}, want: hashOf("ak_secret")},
		{name: "bearer scheme in any case", header: []string{"Authorization", "bearer ak_secret"}, want: hashOf("ak_secret")},
		{name: "X-Api-Key", header: []string{"X-Api-Key", "ak_other"}, want: hashOf("ak_other")},
		{name: "cookie preferred over bearer", cookie: "sess-value", header: []string{"Authorization", "Bearer ak_secret"}, want: hashOf("sess-value")},
		{name: "other scheme ignored", header: []string{"Authorization", "Basic dXNlcjpwYXNz"}, want: "ip:192.0.2.7"},
		{name: "empty bearer ignored", header: []string{"Authorization", "Bearer  "}, want: "ip:192.0.2.7"},
		{name: "empty cookie ignored", cookie: "", header: []string{"X-Api-Key", "k"}, want: hashOf("k")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var got string
			h := clientInfo(0)(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { got = credentialKey(r) }))
			req := httptest.NewRequest(http.MethodGet, "/api/v1/things", nil)
			req.RemoteAddr = "192.0.2.7:5555"
			if tc.cookie != "" {
				req.AddCookie(&http.Cookie{Name: SessionCookieName, Value: tc.cookie})
			}
			for i := 0; i+1 < len(tc.header); i += 2 {
				req.Header.Set(tc.header[i], tc.header[i+1])
			}
			h.ServeHTTP(httptest.NewRecorder(), req)
			require.Equal(t, tc.want, got)
			require.NotContains(t, got, "secret", "the raw credential never appears in the key")
		})
	}
}
