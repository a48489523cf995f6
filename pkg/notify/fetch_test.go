package notify

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/assay-dev/assay/pkg/assess"
)

// refusingTransport fails every request as the dialler's guard does for an internal
// address.
type refusingTransport struct{ addr netip.Addr }

func (r refusingTransport) RoundTrip(*http.Request) (*http.Response, error) {
	return nil, &net.OpError{Op: "dial", Net: "tcp", Err: &RefusedError{Addr: r.addr, Reason: "private network"}}
}

// TestFetchRefusalNamesNoAddress: a document URL whose host name resolves to an internal
// address is refused without naming the address — the caller of an import by URL must not
// learn the internal DNS (issue 26 item 14); the address goes to the server log only.
func TestFetchRefusalNamesNoAddress(t *testing.T) {
	t.Parallel()
	var log bytes.Buffer
	f := NewFetcher(HTTPConfig{Timeout: 5 * time.Second, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	u, _ := url.Parse("https://intranet.example.com/standard.json")
	client := &http.Client{Transport: refusingTransport{addr: netip.MustParseAddr("10.20.30.40")}}
	_, _, err := f.get(context.Background(), client, "url", u, 1<<20)
	if assess.ErrorCode(err) != assess.ECodeBusinessRule {
		t.Fatalf("%v, want a 422", err)
	}
	if text := err.Error(); strings.Contains(text, "10.20.30.40") || !strings.Contains(text, "not allowed") {
		t.Errorf("the caller is told %q", text)
	}
	if !strings.Contains(log.String(), "10.20.30.40") {
		t.Errorf("the log lacks the address: %s", log.String())
	}
}
