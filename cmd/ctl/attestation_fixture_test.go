package main

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/attest"
	"github.com/assay-dev/assay/pkg/cyclonedx"
	"github.com/assay-dev/assay/pkg/jsf"
)

// The fixture attestation: signed on signedAt, valid until validUntil (its evidence's last
// day), with serial number fixtureSerial; its one evidence file holds scanFile.
var signedAt = time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)

const (
	fixtureSerial = "urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79"
	validUntil    = "2027-06-30"
	scanFile      = "TLS scan of shop.example: grade A+\n"
	claimText     = "Traffic is encrypted."
)

// attestation is an attestation worked through the signing profile, with its files on disk.
type attestation struct {
	dir       string
	platform  *jsf.Signer
	statement []byte // as built, unsigned
	frozen    []byte
	jane      []byte // frozen and signed by Jane (slot sg_1) only
	sealed    []byte
	jwksPath  string // the platform's key set
}

// writeFile writes data to name in the attestation's directory and returns the path.
func (a *attestation) writeFile(t testing.TB, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(a.dir, name)
	require.NoError(t, os.WriteFile(path, data, 0o600))
	return path
}

// alanSignsAndSeal adds the electronic signature of the second slot (sg_2) to a document
// whose first slot is signed, and seals it.
func (a *attestation) alanSignsAndSeal(t testing.TB, signed []byte) []byte {
	t.Helper()
	signed, err := attest.AddElectronicSignature(signed, attest.Signatory{SlotURN: cyclonedx.SignatoryURN("sg_2"), Name: "Alan Assessor",
		Role: "Assessor", Organization: "Acme Assurance", SignedAt: signedAt}, nil)
	require.NoError(t, err)
	sealed, err := attest.Seal(signed, a.platform)
	require.NoError(t, err)
	return sealed
}

// newAttestation builds and freezes the statement and seals it with one digital
// signatory (a P-256 key) and one electronic signatory.
func newAttestation(t testing.TB) *attestation {
	t.Helper()
	a := &attestation{dir: t.TempDir(), platform: platformSigner(t)}
	var err error
	a.statement, err = cyclonedx.BuildAttestation(cyclonedx.AttestationSpec, attestationContent(), fixtureSerial, signedAt, "test")
	require.NoError(t, err)
	a.frozen, err = attest.Freeze(a.statement, a.platform)
	require.NoError(t, err)
	signer := signerOf(t, a.frozen, newSigner(t, ecdsaKey(t, elliptic.P256()), "ES256"))
	a.jane, _, err = attest.AddDigitalSignature(a.frozen, signer, janeDoe)
	require.NoError(t, err)
	a.sealed = a.alanSignsAndSeal(t, a.jane)
	a.jwksPath = a.writeFile(t, "jwks.json", jwksOf(t, a.platform))
	return a
}

// janeDoe is the digital signatory of slot sg_1.
var janeDoe = attest.Signatory{SlotURN: cyclonedx.SignatoryURN("sg_1"), Name: "Jane Doe", Role: "CISO", Organization: "Shop Ltd", SignedAt: signedAt}

// bundle writes the evidence bundle of the sealed document with the evidence file's
// bytes replaced by file (nil leaves the file out).
func (a *attestation) bundle(t testing.TB, name string, file []byte) string {
	t.Helper()
	var files []attest.BundleFile
	if file != nil {
		files = append(files, attest.BundleFile{AttachmentID: "af_1", Filename: "scan.txt", SHA256: sha256Hex(scanFile),
			Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(file)), nil }})
	}
	var buf bytes.Buffer
	require.NoError(t, attest.WriteBundle(&buf, a.sealed, files))
	return a.writeFile(t, name, buf.Bytes())
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// attestationContent is a small attestation: one requirement met, a claim citing one
// piece of evidence with one file, two signatory slots.
func attestationContent() assess.AttestationContent {
	one := 1.0
	at := assess.Attestation{ID: "at_01jdq7w0000000000000000001", AssessmentID: "as_1", EntityID: "en_shop", EntityName: "Web shop",
		Summary: "The web shop meets ASVS level 1.", Statement: "We affirm that the claims are accurate.",
		Assessors: []assess.Assessor{{ID: "ao_acme", Name: "Acme Assurance", URL: "https://acme.example", ThirdParty: true}},
		Signatories: []assess.Signatory{{ID: "sg_1", Title: "CISO", Organization: "Shop Ltd", User: &assess.UserRef{ID: "u_1", DisplayName: "Jane Doe"}},
			{ID: "sg_2", Title: "Assessor", Organization: "Acme Assurance"}}}
	return assess.AttestationContent{
		Attestation: at, EntityType: assess.EntityTypeProduct,
		Requirements:    []assess.AttestationRequirement{{ID: "ar_1", Result: "yes", Rationale: "TLS everywhere.", Score: &one, ClaimIDs: []string{"cl_1"}}},
		RequirementRefs: map[string]string{"ar_1": "rq_1"},
		Claims: []assess.Claim{{ID: "cl_1", TargetEntityID: "en_shop", Predicate: claimText, Reasoning: "The scan shows it.",
			Evidence: []assess.ClaimEvidence{{ID: "ev_1"}}}},
		Evidence: []assess.AttestationEvidence{{ID: "ev_1", Name: "TLS scan", Description: "Weekly scan", ValidUntil: validUntil,
			CreatedAt: signedAt, AuthorName: "Bob", Files: []assess.AttestationFile{{ID: "af_1", Filename: "scan.txt", SHA256: sha256Hex(scanFile), Size: int64(len(scanFile))}}}},
		Standards: []assess.StandardContent{{Standard: assess.Standard{ID: "st_1", Name: "ASVS", StandardVersion: "5.0.0"},
			Requirements: []assess.Requirement{{ID: "rq_1", Identifier: "V1.1", Name: "TLS"}}}},
		AppURL: "https://assay.example",
	}
}

// platformSigner is an Ed25519 platform key named by its thumbprint, with the key embedded,
// as the service signs.
func platformSigner(t testing.TB) *jsf.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	jwk, err := jsf.NewJWK(priv.Public())
	require.NoError(t, err)
	s, err := jsf.NewSigner(priv, "Ed25519", jsf.WithKeyID(jsf.Thumbprint(jwk)), jsf.WithPublicKey())
	require.NoError(t, err)
	return s
}

func newSigner(t testing.TB, key crypto.Signer, alg string) *jsf.Signer {
	t.Helper()
	s, err := jsf.NewSigner(key, alg)
	require.NoError(t, err)
	return s
}

func ecdsaKey(t testing.TB, curve elliptic.Curve) *ecdsa.PrivateKey {
	t.Helper()
	key, err := ecdsa.GenerateKey(curve, rand.Reader)
	require.NoError(t, err)
	return key
}

// signerOf makes what a signatory's own tool makes: a signer of declarations as its only
// signer, from the frozen statement.
func signerOf(t testing.TB, frozen []byte, s *jsf.Signer) *jsf.Object {
	t.Helper()
	obj, err := attest.SignStatement(frozen, s)
	require.NoError(t, err)
	return obj
}

// jwksOf is the key set the service publishes for these platform keys.
func jwksOf(t testing.TB, keys ...*jsf.Signer) []byte {
	t.Helper()
	set := attest.JWKS{}
	for _, k := range keys {
		set.Keys = append(set.Keys, attest.JWKSKey{JWK: k.PublicKey(), Kid: k.Thumbprint(), Alg: k.Algorithm(), Use: "sig",
			Status: "active", Created: signedAt})
	}
	data, err := json.Marshal(set)
	require.NoError(t, err)
	return data
}

// pkcs8PEM writes a private key as PKCS#8 PEM.
func pkcs8PEM(t testing.TB, key crypto.Signer) []byte {
	t.Helper()
	der, err := x509.MarshalPKCS8PrivateKey(key)
	require.NoError(t, err)
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
}

// tamper changes one byte of the claim's predicate.
func tamper(t testing.TB, doc []byte) []byte {
	t.Helper()
	changed := strings.Replace(claimText, "encrypted", "encrypteD", 1)
	require.Equal(t, 1, bytes.Count(doc, []byte(claimText)))
	return bytes.Replace(doc, []byte(claimText), []byte(changed), 1)
}
