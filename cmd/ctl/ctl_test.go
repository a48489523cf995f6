package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func execute(t *testing.T, environ []string, args ...string) (string, error) {
	t.Helper()
	cmd := newRootCmd(environ)
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(context.Background())
	return out.String(), err
}

func TestMigrateIsIdempotent(t *testing.T) {
	t.Parallel()
	env := []string{"DATABASE_PROVIDER=postgres", "DATABASE_URL=" + pgtest.NewEmptyDatabase(t)}
	out, err := execute(t, env, "migrate", "--status")
	require.NoError(t, err)
	require.Contains(t, out, "pending")

	out, err = execute(t, env, "migrate")
	require.NoError(t, err)
	require.Contains(t, out, "applied 0001_init.sql")
	require.Contains(t, out, "applied river migration 001")
	require.Contains(t, out, "up to date")

	out, err = execute(t, env, "migrate")
	require.NoError(t, err)
	require.NotContains(t, out, "applied")
	require.Contains(t, out, "up to date")
}

func TestConfigCheckRedactsSecrets(t *testing.T) {
	t.Parallel()
	secretFile := filepath.Join(t.TempDir(), "s3secret")
	require.NoError(t, os.WriteFile(secretFile, []byte("file-secret-value\n"), 0o600))
	env := []string{
		"JWT_SECRET=0123456789abcdef0123456789abcdef-very-secret",
		"METRICS_TOKEN=metrics-token-value", "S3_SECRET_ACCESS_KEY_FILE=" + secretFile, "PORT=4000",
	}
	out, err := execute(t, env, "config", "check")
	require.NoError(t, err)
	require.Contains(t, out, "configuration is valid")
	require.Regexp(t, `PORT\s+4000\s+env`, out)
	require.Regexp(t, `(?m)^memory: soft memory limit .+, GOGC .+: .+$`, out, "the memory settings the server would run with")
	for _, secret := range []string{"very-secret", "metrics-token-value", "file-secret-value"} {
		require.NotContains(t, out, secret)
	}
}

func TestConfigCheckNamesBadVariables(t *testing.T) {
	t.Parallel()
	_, err := execute(t, []string{"PORT=abc", "PASSWORD_MIN_LENGTH=7"}, "config", "check")
	require.Error(t, err)
	require.Contains(t, err.Error(), "PORT")
	require.Contains(t, err.Error(), "PASSWORD_MIN_LENGTH")
}

func TestVersion(t *testing.T) {
	t.Parallel()
	out, err := execute(t, nil, "version")
	require.NoError(t, err)
	require.Contains(t, out, "assay dev")
}

func TestHealthcheck(t *testing.T) {
	t.Parallel()
	ok := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`{"status":"ok"}`))
	}))
	defer ok.Close()
	out, err := execute(t, nil, "healthcheck", "--url", ok.URL)
	require.NoError(t, err)
	require.Contains(t, out, `"status":"ok"`)

	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer bad.Close()
	_, err = execute(t, nil, "healthcheck", "--url", bad.URL)
	require.ErrorContains(t, err, "503")
}
