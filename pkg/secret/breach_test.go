package secret

import (
	"context"
	"crypto/sha1" //nolint:gosec // the protocol's hash
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// fakeRangeServer answers like the real range service and records what it was asked.
func fakeRangeServer(t *testing.T, breached []string, delay time.Duration) (*httptest.Server, *[]string) {
	var mu sync.Mutex
	var asked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked = append(asked, r.URL.Path)
		mu.Unlock()
		time.Sleep(delay)
		prefix := strings.TrimPrefix(r.URL.Path, "/range/")
		fmt.Fprintln(w, "0000000000000000000000000000000000A:0") // padding entry
		for _, p := range breached {
			sum := sha1.Sum([]byte(p)) //nolint:gosec // protocol
			h := strings.ToUpper(hex.EncodeToString(sum[:]))
			if h[:5] == prefix {
				fmt.Fprintf(w, "%s:42\r\n", h[5:])
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &asked
}

func TestBreachChecker(t *testing.T) {
	t.Parallel()
	srv, asked := fakeRangeServer(t, []string{"password123456"}, 0)
	b := &BreachChecker{BaseURL: srv.URL, Timeout: time.Second}
	require.True(t, b.Breached(context.Background(), "password123456"))
	require.False(t, b.Breached(context.Background(), "a rather unusual passphrase"))
	for _, path := range *asked {
		require.Regexp(t, `^/range/[0-9A-F]{5}$`, path, "only five hex characters of the hash are sent")
	}
}

func TestBreachCheckerFailsOpen(t *testing.T) {
	t.Parallel()
	slow, _ := fakeRangeServer(t, []string{"password123456"}, 500*time.Millisecond)
	b := &BreachChecker{BaseURL: slow.URL, Timeout: 50 * time.Millisecond}
	start := time.Now()
	require.False(t, b.Breached(context.Background(), "password123456"), "a timeout lets the password through")
	require.Less(t, time.Since(start), 400*time.Millisecond)
	down := &BreachChecker{BaseURL: "http://127.0.0.1:1", Timeout: time.Second}
	require.False(t, down.Breached(context.Background(), "password123456"))
}
