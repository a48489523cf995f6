package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/attest"
)

// code runs assay-ctl in-process and returns its output and the exit status main would give.
func code(t *testing.T, args ...string) (string, int) {
	t.Helper()
	out, err := execute(t, nil, args...)
	return out, exitStatus(err, io.Discard)
}

func TestVerify(t *testing.T) {
	t.Parallel()
	a := newAttestation(t)
	doc := a.writeFile(t, "attestation.cdx.json", a.sealed)
	tampered := a.writeFile(t, "tampered.cdx.json", tamper(t, a.sealed))
	other := platformSigner(t)
	rescissions := func(signer string, serial string) string {
		key := a.platform
		if signer == "other" {
			key = other
		}
		data, err := attest.SignRescissions(attest.RescissionList{Issuer: "https://assay.example", Updated: signedAt,
			Rescissions: []attest.Rescission{{SerialNumber: serial, AttestationID: "at_1", RescindedAt: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC),
				Reason: "The scan was of the wrong host."}}}, key)
		require.NoError(t, err)
		return a.writeFile(t, "rescissions-"+signer+"-"+sha256Hex(serial)+".json", data)
	}
	pinned := a.writeFile(t, "platform.jwk", mustJSON(t, a.platform.PublicKey()))
	notJSON := a.writeFile(t, "notes.txt", []byte("not a document"))
	intact := a.bundle(t, "bundle.zip", []byte(scanFile))
	changed := a.bundle(t, "changed.zip", []byte("TLS scan of shop.example: grade F\n"))
	missing := a.bundle(t, "missing.zip", nil)
	changedNoExt := a.writeFile(t, "changed-bundle", mustRead(t, changed))

	for _, tc := range []struct {
		name string
		args []string
		code int
		want []string // what the output contains, in any order; "~re" is a regular expression it matches
	}{
		{"sealed document with the platform key set", []string{doc, "--jwks", a.jwksPath, "--date", "2026-12-01"}, 0,
			[]string{"valid", "the document (platform seal)", "claim cl_1", "evidence ev_1", "attestation 1",
				"signatory urn:assay:signatory:sg_1 (Jane Doe)", "ES256", "Ed25519", a.platform.Thumbprint(),
				"valid until 2027-06-30", "verdict: VALID"}},
		{"the platform key given alone as --jwks", []string{doc, "--jwks", pinned}, 0, []string{"verdict: VALID"}},
		{"the platform key pinned for signatories is not the platform's", []string{doc, "--key", pinned}, 1,
			[]string{"valid but untrusted  the document (platform seal)"}},
		{"a claim's predicate changed", []string{tampered, "--jwks", a.jwksPath}, 1,
			[]string{"verdict: NOT VALID: 3 invalid signatures", `~INVALID\s+claim cl_1\s+Ed25519`, `~\nvalid\s+evidence ev_1`}},
		{"no trusted key", []string{doc}, 1, []string{"valid but untrusted", "verdict: NOT VALID: 5 untrusted signatures"}},
		{"rescinded", []string{doc, "--jwks", a.jwksPath, "--revocations", rescissions("platform", fixtureSerial)}, 1,
			[]string{"RESCINDED on 2026-12-01: The scan was of the wrong host.", "verdict: NOT VALID: rescinded"}},
		{"another attestation rescinded", []string{doc, "--jwks", a.jwksPath, "--revocations", rescissions("platform", "urn:uuid:00000000-0000-0000-0000-000000000000")}, 0,
			[]string{"verdict: VALID"}},
		{"expired", []string{doc, "--jwks", a.jwksPath, "--date", "2027-08-01"}, 0,
			[]string{"EXPIRED since 2027-07-01 (valid until 2027-06-30)", "verdict: VALID: every signature is valid and trusted (the attestation has expired)"}},
		{"bundle intact", []string{intact, "--jwks", a.jwksPath}, 0, []string{"file evidence/af_1/scan.txt: ok", "verdict: VALID"}},
		{"bundle with a file changed", []string{changed, "--jwks", a.jwksPath, "--bundle"}, 1,
			[]string{"file evidence/af_1/scan.txt: CHANGED", "verdict: NOT VALID: 1 file changed or missing"}},
		{"bundle recognised without --bundle or .zip", []string{changedNoExt, "--jwks", a.jwksPath}, 1, []string{"file evidence/af_1/scan.txt: CHANGED"}},
		{"bundle without the file", []string{missing, "--jwks", a.jwksPath}, 1, []string{"file evidence/af_1: MISSING from the bundle"}},
		{"rescission list signed with an untrusted key", []string{doc, "--jwks", a.jwksPath, "--revocations", rescissions("other", fixtureSerial)}, 2, nil},
		{"--revocations without a trusted key", []string{doc, "--revocations", rescissions("platform", fixtureSerial)}, 2, nil},
		{"missing file", []string{filepath.Join(a.dir, "nothing.json"), "--jwks", a.jwksPath}, 2, nil},
		{"not JSON", []string{notJSON, "--jwks", a.jwksPath}, 2, nil},
		{"a document given as a bundle", []string{doc, "--bundle", "--jwks", a.jwksPath}, 2, nil},
		{"key set that is not a key set", []string{doc, "--jwks", doc}, 2, nil},
		{"key set file missing", []string{doc, "--jwks", filepath.Join(a.dir, "nothing.json")}, 2, nil},
		{"bad date", []string{doc, "--date", "tomorrow"}, 2, nil},
		{"no file", []string{}, 2, nil},
		{"two files", []string{doc, doc}, 2, nil},
		{"unknown flag", []string{doc, "--trust-everything"}, 2, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, got := code(t, append([]string{"verify"}, tc.args...)...)
			require.Equal(t, tc.code, got, out)
			for _, w := range tc.want {
				if re, ok := strings.CutPrefix(w, "~"); ok {
					require.Regexp(t, re, out)
				} else {
					require.Contains(t, out, w)
				}
			}
		})
	}
}

func TestVerifyJSON(t *testing.T) {
	t.Parallel()
	a := newAttestation(t)
	for _, tc := range []struct {
		name string
		doc  []byte
		code int
	}{
		{"sealed", a.sealed, 0},
		{"tampered", tamper(t, a.sealed), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, got := code(t, "verify", a.writeFile(t, tc.name+".json", tc.doc), "--jwks", a.jwksPath, "--json")
			require.Equal(t, tc.code, got, out)
			var r attest.Report
			require.NoError(t, json.Unmarshal([]byte(out), &r), out)
			require.Equal(t, tc.code == 0, r.OK)
			require.Equal(t, fixtureSerial, r.SerialNumber)
			require.Len(t, r.Checks, 5)
		})
	}
}

// TestVerifyHostileInput: whatever the bytes, verify answers with a status and never panics.
func TestVerifyHostileInput(t *testing.T) {
	t.Parallel()
	a := newAttestation(t)
	for _, tc := range []struct {
		name string
		data string
		code int
	}{
		{"empty", "", 2},
		{"JSON array", "[1,2]", 2},
		{"deep nesting", string(repeat('[', 100000)), 2},
		{"duplicate keys", `{"a":1,"a":2}`, 2},
		{"empty object", "{}", 1},
		{"signature that is not an object", `{"declarations":{},"signature":"x"}`, 1},
		{"signers that are not objects", `{"declarations":{"signature":{"signers":[1,"x",null]}},"signature":{"algorithm":"ES256","value":""}}`, 1},
		{"broken ZIP", "PK\x03\x04 truncated", 2},
		{"empty ZIP", "PK\x05\x06" + string(make([]byte, 18)), 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, got := code(t, "verify", a.writeFile(t, tc.name, []byte(tc.data)), "--jwks", a.jwksPath)
			require.Equal(t, tc.code, got, out)
		})
	}
}

func repeat(b byte, n int) []byte {
	out := make([]byte, n)
	for i := range out {
		out[i] = b
	}
	return out
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	require.NoError(t, err)
	return data
}

func mustRead(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return data
}

// FuzzVerify: whatever the file holds, verify ends with one of its exit statuses and
// never panics. The seeds are a sealed document and a bundle; `go test -fuzz FuzzVerify`
// mutates them.
func FuzzVerify(f *testing.F) {
	a := newAttestation(f)
	f.Add(a.sealed)
	f.Add(mustRead(f, a.bundle(f, "bundle.zip", []byte(scanFile))))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "input")
		require.NoError(t, os.WriteFile(path, data, 0o600))
		out, err := execute(t, nil, "verify", path, "--jwks", a.jwksPath)
		require.Contains(t, []int{0, 1, 2}, exitStatus(err, io.Discard), out)
	})
}
