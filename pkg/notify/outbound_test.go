package notify

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

var loopbackOnly = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}

// TestDialGuard runs the dialer's Control hook on addresses as the dialer hands them over
// (ip:port, after name resolution).
func TestDialGuard(t *testing.T) {
	t.Parallel()
	tests := []struct {
		addr    string
		allow   []netip.Prefix
		plain   bool   // a plain-http request
		refused string // substring of the error; "" = allowed
	}{
		{"169.254.169.254:80", nil, false, "link-local"}, // cloud metadata
		{"[::ffff:169.254.169.254]:443", nil, false, "link-local"},
		{"169.254.169.254:80", loopbackOnly, false, "link-local"},
		{"10.0.0.1:443", nil, false, "private network"},
		{"[::ffff:10.0.0.1]:443", nil, false, "private network"},
		{"10.0.0.1:443", []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}, true, ""},
		{"192.168.1.1:443", nil, false, "private network"},
		{"127.0.0.1:8080", nil, false, "loopback"}, // localhost
		{"[::ffff:127.0.0.1]:8080", nil, false, "loopback"},
		{"[::1]:8080", nil, false, "loopback"},
		{"127.0.0.1:8080", loopbackOnly, false, ""},
		{"127.0.0.1:8080", loopbackOnly, true, ""},
		{"[::ffff:127.0.0.1]:8080", loopbackOnly, true, ""},
		{"127.0.0.2:8080", loopbackOnly, false, "loopback"},
		{"[::1]:8080", loopbackOnly, false, "loopback"},
		{"[fd12::1]:443", nil, false, "private network"},
		{"[fe80::1%eth0]:443", nil, false, "link-local"},
		{"100.64.0.1:443", nil, false, "internal"},
		{"0.0.0.0:443", nil, false, "unspecified"},
		{"255.255.255.255:443", nil, false, "internal"},
		{"224.0.0.1:443", nil, false, "multicast"},
		{"[64:ff9b::a9fe:a9fe]:443", nil, false, "NAT64"}, // 169.254.169.254 through NAT64
		{"93.184.216.34:443", nil, false, ""},
		{"[2606:2800:220:1:248:1893:25c8:1946]:443", nil, false, ""},
		{"93.184.216.34:80", nil, true, "plain http"},
		{"93.184.216.34:80", loopbackOnly, true, "plain http"},
	}
	for _, tt := range tests {
		err := dialControl(tt.allow, tt.plain)("tcp", tt.addr, nil)
		if tt.refused == "" {
			require.NoError(t, err, tt.addr)
			continue
		}
		var refused *RefusedError
		require.ErrorAs(t, err, &refused, tt.addr)
		require.Contains(t, err.Error(), tt.refused, tt.addr)
		require.Contains(t, err.Error(), "OUTBOUND_ALLOW_NETWORKS")
	}
}

// receiver is an httptest server on 127.0.0.1 that counts the requests it got.
func receiver(t *testing.T, h http.HandlerFunc) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		h(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func ok(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "thanks") }

// TestPostRefusesInternalDestinations sends real requests: none of them may leave.
func TestPostRefusesInternalDestinations(t *testing.T) {
	t.Parallel()
	srv, hits := receiver(t, ok)
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	client := NewHTTPClient(HTTPConfig{Timeout: 2 * time.Second, UserAgent: UserAgent("test")})
	for _, u := range []string{
		"https://169.254.169.254/latest/meta-data/",
		"http://169.254.169.254/latest/meta-data/",
		"https://10.0.0.1/hook",
		"http://10.0.0.1/hook",
		"https://[::ffff:127.0.0.1]:" + port + "/",
		"https://[::ffff:169.254.169.254]/",
		"http://localhost:" + port + "/",
		"https://localhost:" + port + "/",
		"http://127.0.0.1:" + port + "/",
		"http://[::ffff:7f00:1]:" + port + "/",
		"http://8.8.8.8/", // plain http to a public address
		"ftp://example.com/x",
		"https://user:pass@example.com/x",
	} {
		t.Run(u, func(t *testing.T) {
			res := client.PostJSON(context.Background(), u, []byte(`{}`), nil)
			require.Error(t, res.Err)
			require.False(t, res.Succeeded())
			require.Zero(t, res.Status)
		})
	}
	require.Zero(t, hits.Load(), "no request reached the receiver")

	var refused *RefusedError
	res := client.PostJSON(context.Background(), "https://169.254.169.254/", nil, nil)
	require.True(t, errors.As(res.Err, &refused), "%v", res.Err)
	require.Equal(t, netip.MustParseAddr("169.254.169.254"), refused.Addr)
	require.Contains(t, res.Error(), "OUTBOUND_ALLOW_NETWORKS")
}

func TestPostReachesAllowListedNetworksOverPlainHTTP(t *testing.T) {
	t.Parallel()
	srv, hits := receiver(t, ok)
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	client := NewHTTPClient(HTTPConfig{Timeout: 2 * time.Second, AllowNetworks: loopbackOnly, UserAgent: UserAgent("test")})
	for _, u := range []string{srv.URL + "/hook", "http://localhost:" + port + "/hook"} {
		res := client.PostJSON(context.Background(), u, []byte(`{}`), nil)
		require.NoError(t, res.Err, u)
		require.True(t, res.Succeeded())
		require.Equal(t, "thanks", res.Body)
	}
	require.EqualValues(t, 2, hits.Load())
	// Other internal addresses stay refused.
	res := client.PostJSON(context.Background(), "https://10.0.0.1/", nil, nil)
	require.ErrorContains(t, res.Err, "private network")
}

func TestPostDoesNotFollowRedirects(t *testing.T) {
	t.Parallel()
	target, targetHits := receiver(t, ok)
	srv, _ := receiver(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL, http.StatusTemporaryRedirect)
	})
	client := NewHTTPClient(HTTPConfig{Timeout: 2 * time.Second, AllowNetworks: loopbackOnly})
	res := client.PostJSON(context.Background(), srv.URL, []byte(`{}`), nil)
	require.NoError(t, res.Err)
	require.Equal(t, http.StatusTemporaryRedirect, res.Status)
	require.False(t, res.Succeeded())
	require.Equal(t, "HTTP 307 Temporary Redirect", res.Error())
	require.Zero(t, targetHits.Load())
}

func TestPostTimesOutAndKeepsTheURLOutOfErrors(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	srv, _ := receiver(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	defer close(release)
	client := NewHTTPClient(HTTPConfig{Timeout: 300 * time.Millisecond, AllowNetworks: loopbackOnly})
	started := time.Now()
	res := client.PostJSON(context.Background(), srv.URL+"/services/T000/B000/secret-token", []byte(`{}`), nil)
	require.Less(t, time.Since(started), 2*time.Second)
	require.EqualError(t, res.Err, "timeout after 300ms")
	require.NotContains(t, res.Error(), "secret-token")

	// A refused connection also leaves the URL out.
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	res = client.PostJSON(context.Background(), closed.URL+"/secret-token", []byte(`{}`), nil)
	require.EqualError(t, res.Err, "The connection was refused.", "in words, not the Go error with its addresses")
	require.NotContains(t, res.Error(), "secret-token")
}

// TestPostSaysAFailedLookupInWords: the delivery log reads "The name could not be looked
// up.", not Go's "dial tcp: lookup hooks.example.com on 10.255.255.53:53: …", which named
// the internal name server to whoever reads the log.
func TestPostSaysAFailedLookupInWords(t *testing.T) {
	t.Parallel()
	resolver := &net.Resolver{PreferGo: true, Dial: func(context.Context, string, string) (net.Conn, error) {
		return nil, errors.New("dial udp 10.255.255.53:53: unreachable")
	}}
	client := NewHTTPClient(HTTPConfig{Timeout: 2 * time.Second, Resolver: resolver})
	res := client.PostJSON(context.Background(), "https://hooks.example.com/secret-token", []byte(`{}`), nil)
	require.EqualError(t, res.Err, "The name could not be looked up.")
	require.NotContains(t, res.Error(), "10.255.255.53")
}

func TestPostKeepsAnExcerptOfTheResponse(t *testing.T) {
	t.Parallel()
	srv, _ := receiver(t, func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusBadGateway)
		_, _ = io.WriteString(w, strings.Repeat("é", 2000)) // 4000 bytes, two per rune
	})
	client := NewHTTPClient(HTTPConfig{Timeout: 2 * time.Second, AllowNetworks: loopbackOnly})
	res := client.PostJSON(context.Background(), srv.URL, []byte(`{}`), nil)
	require.NoError(t, res.Err)
	require.Equal(t, http.StatusBadGateway, res.Status)
	require.Equal(t, strings.Repeat("é", 512), res.Body)
	require.Equal(t, "HTTP 502 Bad Gateway", res.Error())
}
