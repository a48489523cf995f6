package main

import (
	"bytes"
	"crypto/elliptic"
	"errors"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/attest"
	"github.com/assay-dev/assay/pkg/jsf"
)

// buildCtl builds assay-ctl, so that a test can run the real program: main's exit
// statuses, and an environment that is truly empty.
func buildCtl(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "assay-ctl")
	out, err := exec.Command("go", "build", "-o", path, ".").CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	return path
}

// runEmptyEnv runs a program with an empty environment and returns stdout, stderr and the
// exit status.
func runEmptyEnv(t *testing.T, program string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(program, args...)
	cmd.Env = []string{} // not nil: nil would pass the test's environment on
	cmd.Dir = t.TempDir()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return stdout.String(), stderr.String(), 0
	case errors.As(err, &exit):
		return stdout.String(), stderr.String(), exit.ExitCode()
	default:
		t.Fatal(err)
		return "", "", -1
	}
}

// TestOfflineCommandsNeedNoEnvironment runs the built program with an empty environment:
// no DATABASE_URL, no configuration, no HOME. verify and sign work, and the exit status
// tells a failed check (1) from unusable input (2).
func TestOfflineCommandsNeedNoEnvironment(t *testing.T) {
	t.Parallel()
	ctl := buildCtl(t)
	a := newAttestation(t)
	doc := a.writeFile(t, "attestation.cdx.json", a.sealed)
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"verify", []string{"verify", doc, "--jwks", a.jwksPath}, 0, "verdict: VALID", ""},
		{"verify a tampered document", []string{"verify", a.writeFile(t, "tampered.json", tamper(t, a.sealed)), "--jwks", a.jwksPath}, 1, "INVALID", ""},
		{"verify a missing file", []string{"verify", filepath.Join(a.dir, "missing.json")}, 2, "", "no such file"},
		{"verify without a file", []string{"verify"}, 2, "", "accepts 1 arg"},
		{"sign", []string{"sign", a.writeFile(t, "frozen.json", a.frozen), "--key", a.writeFile(t, "key.pem", pkcs8PEM(t, ecdsaKey(t, elliptic.P256())))}, 0, `"algorithm": "ES256"`, ""},
		{"sign with an unknown flag", []string{"sign", doc, "--kee", "x"}, 2, "", "unknown flag"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			stdout, stderr, status := runEmptyEnv(t, ctl, tc.args...)
			require.Equal(t, tc.code, status, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
			require.Contains(t, stdout, tc.stdout)
			require.Contains(t, stderr, tc.stderr)
			if tc.name == "sign" {
				signer, err := jsf.ParseObject([]byte(stdout))
				require.NoError(t, err)
				_, _, err = attest.AddDigitalSignature(a.frozen, signer, janeDoe)
				require.NoError(t, err)
			}
		})
	}
}
