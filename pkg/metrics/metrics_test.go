package metrics

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestHandlerToken: the scrape token is a bearer token; the scheme is matched in any
// letter case (RFC 9110), the token exactly.
func TestHandlerToken(t *testing.T) {
	h := New("t_").Handler("scrape-token")
	for value, want := range map[string]int{
		"Bearer scrape-token": http.StatusOK, "bearer scrape-token": http.StatusOK, "BEARER scrape-token": http.StatusOK,
		"Bearer wrong": http.StatusUnauthorized, "Basic scrape-token": http.StatusUnauthorized, "": http.StatusUnauthorized,
	} {
		r := httptest.NewRequest("GET", "/metrics", nil)
		r.Header.Set("Authorization", value)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		require.Equal(t, want, rec.Code, value)
	}
}
