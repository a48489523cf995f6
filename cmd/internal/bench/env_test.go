package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestServerEnvironment: the server gets the embedded database's default pool for the
// machine's CPUs unless -server-env names DB_MAX_CONNS; -server-env settings come last.
func TestServerEnvironment(t *testing.T) {
	require.Equal(t, []string{"DB_MAX_CONNS=8"}, serverEnvironment(nil, 2))
	require.Equal(t, []string{"DB_MAX_CONNS=16", "LOG_LEVEL=info"}, serverEnvironment([]string{"LOG_LEVEL=info"}, 4))
	require.Equal(t, []string{"DB_MAX_CONNS=20", "X=1"}, serverEnvironment([]string{"DB_MAX_CONNS=20", "X=1"}, 2))
}

// TestServerEnvFlagIsValidated: a -server-env value without a name and "=" is refused
// before anything starts.
func TestServerEnvFlagIsValidated(t *testing.T) {
	o := options{Concurrency: 1, Duration: 3 * time.Second, Users: 1, Evidence: 3, Credentials: 1, Rounds: 1, Out: "x", Server: "env_test.go"}
	require.NoError(t, o.Validate())
	for _, bad := range []string{"DB_MAX_CONNS", "=8", "A B=1"} {
		o.ServerEnv = []string{bad}
		require.ErrorContains(t, o.Validate(), "want NAME=VALUE", bad)
	}
}
