package main

import (
	"archive/zip"
	"bytes"
	"crypto/elliptic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/attest"
	"github.com/assay-dev/assay/pkg/cyclonedx"
	"github.com/assay-dev/assay/pkg/jsf"
)

// Tests of pkg/attest's verdicts on hostile bundles and keys, written against the defects
// found while building assay-ctl verify (each failed before pkg/attest was fixed).

// zipOf writes a ZIP with the entries in the given order; names may repeat.
func zipOf(t *testing.T, entries ...[2]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	for _, e := range entries {
		w, err := z.Create(e[0])
		require.NoError(t, err)
		_, err = w.Write([]byte(e[1]))
		require.NoError(t, err)
	}
	require.NoError(t, z.Close())
	return buf.Bytes()
}

// TestBundleVerdictIsDeterministic: with two files under one attachment id (the genuine
// scan and a changed copy), the bundle fails every time: every file of the bundle is
// checked, and a second file of one attachment or one the document does not bind is
// reported.
func TestBundleVerdictIsDeterministic(t *testing.T) {
	t.Parallel()
	a := newAttestation(t)
	bundle := zipOf(t,
		[2]string{attest.BundleDocument, string(a.sealed)},
		[2]string{"evidence/af_1/scan.txt", scanFile},
		[2]string{"evidence/af_1/scan (copy).txt", "TLS scan of shop.example: grade F\n"})
	trust := attest.Options{PlatformKeys: []jsf.JWK{a.platform.PublicKey()}}
	for range 50 {
		r, err := attest.VerifyBundle(bytes.NewReader(bundle), int64(len(bundle)), trust)
		require.NoError(t, err)
		require.False(t, r.OK, "a bundle carrying a changed copy of a bound file verified: %+v", r.Files)
	}
}

// TestBundleWithTwoDocumentsFails: a bundle with two entries named attestation.cdx.json is
// refused (tools disagree on which one they extract), so a tampered document cannot ride
// in a bundle that verifies.
func TestBundleWithTwoDocumentsFails(t *testing.T) {
	t.Parallel()
	a := newAttestation(t)
	bundle := zipOf(t,
		[2]string{attest.BundleDocument, string(tamper(t, a.sealed))},
		[2]string{attest.BundleDocument, string(a.sealed)},
		[2]string{"evidence/af_1/scan.txt", scanFile})
	r, err := attest.VerifyBundle(bytes.NewReader(bundle), int64(len(bundle)), attest.Options{PlatformKeys: []jsf.JWK{a.platform.PublicKey()}})
	require.False(t, err == nil && r.OK, "a bundle with a tampered first document verified")
}

// TestPinnedSignatoryKeyCannotSeal: a key pinned for a signatory (assay-ctl verify --key
// jane.jwk) is not trusted in the platform's role, so its holder cannot freeze, sign and
// seal an attestation that verifies as if the platform had issued it.
func TestPinnedSignatoryKeyCannotSeal(t *testing.T) {
	t.Parallel()
	jane := newSigner(t, ecdsaKey(t, elliptic.P256()), "ES256")
	statement, err := cyclonedx.BuildAttestation(cyclonedx.AttestationSpec, attestationContent(), fixtureSerial, signedAt, "forged")
	require.NoError(t, err)
	frozen, err := attest.Freeze(statement, jane)
	require.NoError(t, err)
	signed, _, err := attest.AddDigitalSignature(frozen, signerOf(t, frozen, jane), janeDoe)
	require.NoError(t, err)
	forged, err := attest.Seal(signed, jane)
	require.NoError(t, err)
	r := attest.Verify(forged, attest.Options{SignatoryKeys: []jsf.JWK{jane.PublicKey()}})
	require.False(t, r.OK, "a document frozen and sealed by a signatory's key verified as the platform's")
}
