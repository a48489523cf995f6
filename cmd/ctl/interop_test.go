package main

import (
	"bytes"
	"crypto"
	"crypto/elliptic"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/attest"
	"github.com/assay-dev/assay/pkg/cyclonedx"
	"github.com/assay-dev/assay/pkg/jsf"
)

// The interoperability tests prove "anyone can verify without us" with code that is not
// ours: tools/interop holds small Node programs on Node's crypto, the npm package
// canonicalize (RFC 8785) and @cyclonedx/cyclonedx-library, written from the JSF
// specification. They need node and npm; without them the tests skip, except in CI
// (CI=true), where they fail.

var (
	npmOnce sync.Once
	npmErr  error
)

// interopDir returns tools/interop with its packages installed (npm ci, once).
func interopDir(t *testing.T) string {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is not on PATH: the interoperability tests cannot run", tool)
			}
			t.Skipf("%s is not on PATH", tool)
		}
	}
	dir, err := filepath.Abs(filepath.Join("..", "..", "tools", "interop"))
	require.NoError(t, err)
	npmOnce.Do(func() {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", ".package-lock.json")); err == nil {
			return
		}
		cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			npmErr = errors.New("npm ci in tools/interop: " + err.Error() + "\n" + string(out))
		}
	})
	require.NoError(t, npmErr)
	return dir
}

// node runs a script of tools/interop and returns its standard output and exit status.
func node(t *testing.T, script string, args ...string) (string, int) {
	t.Helper()
	dir := interopDir(t)
	cmd := exec.Command("node", append([]string{filepath.Join(dir, script)}, args...)...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return stdout.String(), 0
	case errors.As(err, &exit):
		if exit.ExitCode() == 2 {
			t.Logf("%s: %s", script, stderr.String())
		}
		return stdout.String(), exit.ExitCode()
	default:
		t.Fatalf("node %s: %v", script, err)
		return "", -1
	}
}

// nodeResult is one line of jsf-verify.mjs's report.
type nodeResult struct {
	Pointer    string `json:"pointer"`
	Index      *int   `json:"index"`
	Algorithm  string `json:"algorithm"`
	Thumbprint string `json:"thumbprint"`
	Valid      bool   `json:"valid"`
	Reason     string `json:"reason"`
}

// nodeVerify runs jsf-verify.mjs on a file and returns its report and exit status.
func nodeVerify(t *testing.T, path string, args ...string) ([]nodeResult, int) {
	t.Helper()
	out, status := node(t, "jsf-verify.mjs", append(args, path)...)
	var results []nodeResult
	if status != 2 {
		require.NoError(t, json.Unmarshal([]byte(out), &results), out)
	}
	return results, status
}

// TestNodeVerifiesSealedDocument: every signature of a document sealed by pkg/attest (the
// platform's per-object signatures, two signatories in declarations.signature, one of them
// made by `assay-ctl sign`, and the seal) verifies with the Node verifier, which finds the
// same signatures and keys as attest.Verify; the document keeps to the CycloneDX schema as
// the CycloneDX library checks it. With one byte of a claim changed the Node verifier
// fails, naming the claim.
func TestNodeVerifiesSealedDocument(t *testing.T) {
	t.Parallel()
	a := newAttestation(t)
	// A second digital signatory, signing with assay-ctl sign (Ed25519).
	withSecond, _, err := attest.AddDigitalSignature(a.jane, signerFor(t, a, ed25519Key(t)),
		attest.Signatory{SlotURN: cyclonedx.SignatoryURN("sg_2"), Name: "Alan Assessor", SignedAt: signedAt})
	require.NoError(t, err)
	sealed, err := attest.Seal(withSecond, a.platform)
	require.NoError(t, err)
	report := attest.Verify(sealed, attest.Options{PlatformKeys: []jsf.JWK{a.platform.PublicKey()}})
	require.True(t, report.OK, "%+v", report)
	path := a.writeFile(t, "two-signatories.cdx.json", sealed)

	results, status := nodeVerify(t, path)
	require.Equal(t, 0, status, "%+v", results)
	require.Len(t, results, len(report.Checks))
	signatories := 0
	for _, r := range results {
		require.True(t, r.Valid, "%+v", r)
		if r.Pointer == "/declarations" {
			signatories++
			require.NotNil(t, r.Index, "a signatory is one of declarations.signature.signers")
		}
		require.Contains(t, thumbprints(report.Checks, r.Pointer), r.Thumbprint, "the Node verifier used another key for %s", r.Pointer)
	}
	require.Equal(t, 2, signatories)

	out, status := node(t, "cdx-validate.mjs", path)
	require.Equal(t, 0, status, out)

	results, status = nodeVerify(t, a.writeFile(t, "tampered.cdx.json", tamper(t, sealed)))
	require.Equal(t, 1, status)
	invalid := map[string]bool{}
	for _, r := range results {
		if !r.Valid {
			invalid[r.Pointer] = true
		}
	}
	require.Equal(t, map[string]bool{"": true, "/declarations": true, "/declarations/claims/0": true}, invalid,
		"the seal, both signatories and the claim cover the predicate; nothing else does")
}

// thumbprints lists the keys attest.Verify reports for the signatures at pointer.
func thumbprints(checks []attest.Check, pointer string) []string {
	var out []string
	for _, c := range checks {
		if c.Pointer == pointer {
			out = append(out, c.Thumbprint)
		}
	}
	return out
}

// TestNodeSignerIsAccepted: a signer made by jsf-sign.mjs (Node's crypto, as a browser
// would make it) over a frozen statement from pkg/attest is accepted by
// attest.AddDigitalSignature, and the sealed result verifies with attest.Verify, with
// `assay-ctl verify` and with the Node verifier.
func TestNodeSignerIsAccepted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		key  crypto.Signer
		alg  string
	}{
		{"P-256", ecdsaKey(t, elliptic.P256()), "ES256"},
		{"Ed25519", ed25519Key(t), "Ed25519"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := newAttestation(t)
			frozen := a.writeFile(t, "frozen.json", a.frozen)
			out, status := node(t, "jsf-sign.mjs", frozen, a.writeFile(t, "key.pem", pkcs8PEM(t, tc.key)))
			require.Equal(t, 0, status, out)
			signer, err := jsf.ParseObject([]byte(out))
			require.NoError(t, err, out)
			alg, _ := signer.Get("algorithm")
			require.Equal(t, tc.alg, alg)

			signed, jwk, err := attest.AddDigitalSignature(a.frozen, signer, janeDoe)
			require.NoError(t, err, "the service refuses the Node signer")
			want, err := jsf.NewJWK(tc.key.Public())
			require.NoError(t, err)
			require.Equal(t, want, jwk)
			sealed := a.alanSignsAndSeal(t, signed)
			r := attest.Verify(sealed, attest.Options{PlatformKeys: []jsf.JWK{a.platform.PublicKey()}})
			require.True(t, r.OK, "%+v", r)

			path := a.writeFile(t, "sealed.cdx.json", sealed)
			text, status := code(t, "verify", path, "--jwks", a.jwksPath)
			require.Equal(t, 0, status, text)
			results, status := nodeVerify(t, path)
			require.Equal(t, 0, status, "%+v", results)
		})
	}
}

// sharedData is ../shared/data beside the checkout, or $SHARED_DATA_DIR. The vectors
// are the proof of interoperability, so their absence fails the test.
func sharedData(t *testing.T, parts ...string) string {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "shared", "data")
	if d := os.Getenv("SHARED_DATA_DIR"); d != "" {
		dir = d
	}
	path := filepath.Join(append([]string{dir}, parts...)...)
	_, err := os.Stat(path)
	require.NoError(t, err, "shared test data not found (set SHARED_DATA_DIR to the folder holding jsf/)")
	return path
}

// TestNodeVerifiesSharedEnvelopes: the JSF envelopes of every algorithm the profile allows
// verify with the Node verifier, and each fails with one byte of its payload changed.
func TestNodeVerifiesSharedEnvelopes(t *testing.T) {
	t.Parallel()
	for _, alg := range []string{"ES256", "ES384", "ES512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "Ed25519"} {
		t.Run(alg, func(t *testing.T) {
			t.Parallel()
			path := sharedData(t, "jsf", "envelopes", alg+".json")
			results, status := nodeVerify(t, path)
			require.Equal(t, 0, status, "%+v", results)
			require.Len(t, results, 1)
			require.Equal(t, alg, results[0].Algorithm)

			data := mustRead(t, path)
			require.Contains(t, string(data), "assessment-42")
			changed := filepath.Join(t.TempDir(), alg+".json")
			require.NoError(t, os.WriteFile(changed, bytes.Replace(data, []byte("assessment-42"), []byte("assessment-43"), 1), 0o600))
			results, status = nodeVerify(t, changed)
			require.Equal(t, 1, status, "%+v", results)
		})
	}
}

// TestNodeVerifierFollowsTheSpecification: the Node verifier accepts the JSF
// specification's own vectors (single, multiple and chained signatures, extensions,
// excludes, a custom property name, keys named by keyId), so its agreement with pkg/jsf
// is agreement with JSF, not with our reading of it.
func TestNodeVerifierFollowsTheSpecification(t *testing.T) {
	t.Parallel()
	dir := sharedData(t, "jsf", "interop", "jsf-spec")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	keys := []string{}
	for _, k := range []string{"p256", "r2048"} {
		keys = append(keys, "--keys", filepath.Join(dir, k+"privatekey.jwk"))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			args := slices.Clone(keys)
			if strings.Contains(f, "@name-") {
				args = append(args, "--property", "authorizationSignature")
			}
			results, status := nodeVerify(t, f, args...)
			require.Equal(t, 0, status, "%+v", results)
		})
	}
}

// canonicalProbe holds what canonicalisers get wrong: numbers at the edges of ECMAScript's
// formatting, escapes, and names whose UTF-16 order differs from their code point order.
const canonicalProbe = `{"numbers":[0,-0,1,-1,0.1,1e21,1e20,123456789012345678901,1e-6,1e-7,4.5e-324,5e-324,
 1.7976931348623157e308,333333333.33333329,1E30,-1.5e-10,9007199254740993,100,1.0,2.50,1e+2,-0.0,295147905179352830000],
 "strings":["\u0000\u001f\u007f\u0080\u2028\u2029\ud83d\ude00\"\\/","\b\f\n\r\t","\u00e9\u20ac"],
 "\u20ac":1,"\r":2,"1":3,"\ud83d\ude00":4,"\ufb33":5,"\u0080":6,"a":7,"A":8,"":9,"\ue000":10,"\uffff":11,"\ud800\udc00":12,
 "nested":{"z":[{"b":true,"a":null}],"y":{}}}`

// TestNodeCanonicalFormMatches: pkg/jsf's JCS writes the same bytes as canonicalize, the
// implementation by one of RFC 8785's authors, so both sign and check the same data.
func TestNodeCanonicalFormMatches(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "probe.json")
	require.NoError(t, os.WriteFile(path, []byte(canonicalProbe), 0o600))
	ours, err := jsf.Canonicalize([]byte(canonicalProbe))
	require.NoError(t, err)
	theirs, status := node(t, "jcs.mjs", path)
	require.Equal(t, 0, status)
	require.Equal(t, theirs, string(ours))
}
