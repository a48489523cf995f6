package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

// TestBindAddressAndURLToOpen: BIND_ADDRESS with PORT is where the server listens, and
// the start-up log names the URL to open in a browser.
func TestBindAddressAndURLToOpen(t *testing.T) {
	t.Parallel()
	port := freePort(t)
	logs := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, options{Stdout: logs, Ready: func(a string) { ready <- a }, Environ: []string{
			"DATABASE_PROVIDER=postgres", "DATABASE_URL=" + pgtest.NewDatabase(t), "NODE_ENV=test",
			"BIND_ADDRESS=127.0.0.1", fmt.Sprintf("PORT=%d", port), "SHUTDOWN_TIMEOUT=5s"}})
	}()
	defer func() {
		cancel()
		require.NoError(t, <-done)
	}()
	select {
	case addr := <-ready:
		require.Equal(t, fmt.Sprintf("127.0.0.1:%d", port), addr)
	case err := <-done:
		t.Fatalf("server did not start: %v\n%s", err, logs)
	case <-time.After(60 * time.Second):
		t.Fatal("server did not start within 60s")
	}
	require.True(t, strings.Contains(logs.String(), fmt.Sprintf(`"open":"http://localhost:%d"`, port)), logs.String())
}
