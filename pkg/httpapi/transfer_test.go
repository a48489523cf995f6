package httpapi

import (
	"net/http"
	"testing"

	"github.com/assay-dev/assay/pkg/assess"
)

// TestDownloadsNotConfigured: without StandardImports (pkg/app) wired in, its operations —
// import by URL, the feed, a feed item, the starter set — answer 503.
func TestDownloadsNotConfigured(t *testing.T) {
	h := newHarness(t, permAuthorizer{granted: assess.PermStandardsImport})
	for _, c := range []struct{ method, path, body string }{
		{http.MethodGet, "/api/v1/standards/feed", ""},
		{http.MethodPost, "/api/v1/standards/feed/import", `{"itemId":"asvs@5.0.0"}`},
		{http.MethodPost, "/api/v1/standards/starter", ""},
		{http.MethodPost, "/api/v1/standards/import-url", `{"url":"https://example.com/standard.cdx.json"}`},
	} {
		res, body := h.do(t, c.method, c.path, c.body, "Authorization", "Bearer t")
		requireEnvelope(t, res, body, http.StatusServiceUnavailable, assess.ECodeUnavailable)
	}
}
