package notify

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
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
	_, _, err := f.get(context.Background(), client, "url", u.Hostname(), u, 1<<20)
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

// serveDNS answers every DNS query on a loopback UDP port with rcode (3: the name does not
// exist, 2: the server failed) and returns a resolver that asks only it.
func serveDNS(t *testing.T, rcode byte) *net.Resolver {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pc.Close() })
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			// The header (12 bytes), then the question: the name's labels, type and class.
			end := 12
			for end < n && buf[end] != 0 {
				end += int(buf[end]) + 1
			}
			end += 5
			if n < 12 || end > n {
				continue
			}
			answer := append([]byte(nil), buf[:end]...)
			answer[2] = 0x80 | buf[2]&0x01 // a response, recursion desired as asked
			answer[3] = 0x80 | rcode       // recursion available, the answer's code
			clear(answer[6:12])            // no answer, authority or additional records
			_, _ = pc.WriteTo(answer, from)
		}
	}()
	addr := pc.LocalAddr().String()
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", addr)
	}}
}

// closedPort returns a loopback address where nothing listens.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return addr
}

// silentServer accepts connections on loopback and never answers.
func silentServer(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() { close(done); _ = l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() { <-done; _ = c.Close() }()
		}
	}()
	return l.Addr().String()
}

// TestFetchFailuresInWords: a download that fails says why in words and names the host it
// was asked for — never a Go error text such as "dial tcp: lookup … no such host" — with
// the detail fetch_failed. Real servers on loopback stand for the internet.
func TestFetchFailuresInWords(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/missing":
			http.NotFound(w, r)
		case "/broken":
			http.Error(w, "boom", http.StatusInternalServerError)
		default:
			http.Redirect(w, r, r.URL.Path, http.StatusFound) // to itself, forever
		}
	}))
	t.Cleanup(srv.Close)
	srvHost := strings.TrimPrefix(srv.URL, "http://")
	nxdomain, servfail := serveDNS(t, 3), serveDNS(t, 2)
	refused, silent := closedPort(t), silentServer(t)
	cases := []struct {
		name, url string
		resolver  *net.Resolver
		want      string
	}{
		{"a name that does not exist", "https://feed.assay.test/feed.json", nxdomain,
			"The document at feed.assay.test could not be downloaded: the name does not resolve."},
		{"a name that does not exist, plain http", "http://feed.assay.test/feed.json", nxdomain,
			"The document at feed.assay.test could not be downloaded: the name does not resolve."},
		{"a name server that fails", "https://feed.assay.test/feed.json", servfail,
			"The document at feed.assay.test could not be downloaded: the name could not be looked up."},
		{"a refused connection", "http://" + refused + "/feed.json", nil,
			"The document at 127.0.0.1 could not be downloaded: the connection was refused."},
		{"no answer in time", "http://" + silent + "/feed.json", nil,
			"The document at 127.0.0.1 could not be downloaded: it did not answer in time."},
		{"HTTP 404", srv.URL + "/missing", nil,
			"The document at 127.0.0.1 could not be downloaded: it answered HTTP 404 Not Found."},
		{"HTTP 500", srv.URL + "/broken", nil,
			"The document at 127.0.0.1 could not be downloaded: it answered HTTP 500 Internal Server Error."},
		{"endless redirects", srv.URL + "/loop", nil,
			"The document at 127.0.0.1 could not be downloaded: it redirected more than 5 times."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var log bytes.Buffer
			f := NewFetcher(HTTPConfig{Timeout: 500 * time.Millisecond, Resolver: c.resolver,
				AllowNetworks: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")},
				Logger:        slog.New(slog.NewTextHandler(&log, nil))})
			_, err := f.FetchDocument(context.Background(), "url", c.url, 1<<20)
			var fetch *assess.FetchError
			if !errors.As(err, &fetch) {
				t.Fatalf("%v, want a FetchError", err)
			}
			if got := assess.ErrorMessage(err); got != c.want {
				t.Errorf("the caller is told %q, want %q", got, c.want)
			}
			var answer *assess.Error
			if !errors.As(err, &answer) || answer.Code != assess.ECodeBusinessRule || answer.Details[0].Code != "fetch_failed" || answer.Details[0].Field != "url" {
				t.Errorf("the answer is %+v, want 422 with detail fetch_failed on url", answer)
			}
			for _, raw := range []string{"dial", "lookup", "tcp", "udp", "connect:", "timeout", "Get ", srvHost, refused, silent} {
				if strings.Contains(err.Error(), raw) {
					t.Errorf("the answer %q contains the Go error text %q", err.Error(), raw)
				}
			}
		})
	}
}
