package jsf

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"
)

// attestation is a document shaped like what the product signs: nested objects and
// arrays, a non-ASCII string, numbers that JCS must normalise.
const attestation = `{
  "bomFormat": "CycloneDX",
  "specVersion": "1.6",
  "declarations": {
    "attestations": [
      {"summary": "Gültig ✓", "score": 4.50, "map": [{"requirement": "r1", "claims": ["c1"]}]},
      {"summary": "second", "score": 1e21}
    ]
  }
}`

var freshKeys = sync.OnceValue(func() map[string]crypto.Signer {
	p256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	p384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	p521, _ := ecdsa.GenerateKey(elliptic.P521(), rand.Reader)
	r2048, _ := rsa.GenerateKey(rand.Reader, 2048)
	_, ed, _ := ed25519.GenerateKey(rand.Reader)
	return map[string]crypto.Signer{"p256": p256, "p384": p384, "p521": p521, "rsa": r2048, "ed25519": ed}
})

// TestRoundTrip signs with every algorithm, with the shared PKCS#8 keys and with fresh
// ones, at the top and at a nested pointer, and verifies the result.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	shared := map[string]crypto.Signer{
		"p256":    privateKeyPEM(t, "keys", "p256-private.pem"),
		"p384":    privateKeyPEM(t, "keys", "p384-private.pem"),
		"p521":    privateKeyPEM(t, "keys", "p521-private.pem"),
		"rsa":     privateKeyPEM(t, "keys", "rsa2048-private.pem"),
		"ed25519": privateKeyPEM(t, "keys", "ed25519-private.pem"),
	}
	keyFor := map[string]string{
		"ES256": "p256", "ES384": "p384", "ES512": "p521", "Ed25519": "ed25519",
		"RS256": "rsa", "RS384": "rsa", "RS512": "rsa", "PS256": "rsa", "PS384": "rsa", "PS512": "rsa",
	}
	for _, alg := range Algorithms() {
		for set, keys := range map[string]map[string]crypto.Signer{"shared": shared, "fresh": freshKeys()} {
			s, err := NewSigner(keys[keyFor[alg]], alg)
			if err != nil {
				t.Fatalf("%s %s: %v", set, alg, err)
			}
			for _, pointer := range []string{"", "/declarations/attestations/1"} {
				signed, err := Sign([]byte(attestation), Target{Pointer: pointer}, s)
				if err != nil {
					t.Fatalf("%s %s at %q: %v", set, alg, pointer, err)
				}
				results, err := Verify(signed, VerifyOptions{})
				if err != nil || len(results) != 1 {
					t.Fatalf("%s %s at %q: %v\n%s", set, alg, pointer, err, signed)
				}
				r := results[0]
				if !r.Valid || r.Pointer != pointer || r.Algorithm != alg || r.Thumbprint != s.Thumbprint() || r.Index != -1 {
					t.Errorf("%s %s at %q: %+v", set, alg, pointer, r)
				}
				checkTampering(t, set+" "+alg, signed, pointer, VerifyOptions{})
			}
		}
	}
}

func TestSignerRefuses(t *testing.T) {
	t.Parallel()
	keys := freshKeys()
	weak, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		key  crypto.Signer
		alg  string
		want error
	}{
		{"HMAC", keys["p256"], "HS256", ErrHMAC},
		{"Ed448", keys["ed25519"], "Ed448", ErrUnsupportedAlgorithm},
		{"EdDSA", keys["ed25519"], "EdDSA", ErrUnsupportedAlgorithm},
		{"unknown", keys["p256"], "ES257", ErrUnsupportedAlgorithm},
		{"lower case", keys["p256"], "es256", ErrUnsupportedAlgorithm},
		{"none", keys["p256"], "none", ErrUnsupportedAlgorithm},
		{"curve mismatch", keys["p384"], "ES256", ErrKeyMismatch},
		{"RSA algorithm, EC key", keys["p256"], "PS256", ErrKeyMismatch},
		{"EC algorithm, Ed25519 key", keys["ed25519"], "ES256", ErrKeyMismatch},
		{"RSA 1024", weak, "RS256", ErrWeakKey},
	}
	for _, tt := range tests {
		if _, err := NewSigner(tt.key, tt.alg); !errors.Is(err, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, err, tt.want)
		}
	}
	if _, err := NewSigner(keys["p256"], "ES256", WithPublicKey(), WithCertificatePath(&x509.Certificate{})); err == nil {
		t.Error("WithPublicKey with WithCertificatePath: no error")
	}

	s, err := NewSigner(keys["p256"], "ES256")
	if err != nil {
		t.Fatal(err)
	}
	signed, err := Sign([]byte(attestation), Target{}, s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Sign(signed, Target{}, s); !errors.Is(err, ErrAlreadySigned) {
		t.Errorf("signing twice: got %v, want ErrAlreadySigned", err)
	}
	if _, err := AddSigner(signed, Target{}, s); !errors.Is(err, ErrAlreadySigned) {
		t.Errorf("adding a signer to a single signature: got %v, want ErrAlreadySigned", err)
	}
	if _, err := Sign([]byte(attestation), Target{Pointer: "/declarations/attestations/0/map"}, s); !errors.Is(err, ErrPointer) {
		t.Errorf("signing an array: got %v, want ErrPointer", err)
	}
}

// TestKeyIDAndCertificatePath names keys by keyId and by a certificate path.
func TestKeyIDAndCertificatePath(t *testing.T) {
	t.Parallel()
	keys := freshKeys()
	byID, err := NewSigner(keys["ed25519"], "Ed25519", WithKeyID("assay:ed"))
	if err != nil {
		t.Fatal(err)
	}
	signed, err := Sign([]byte(attestation), Target{Property: "attestationSignature"}, byID)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(signed), "publicKey") {
		t.Errorf("WithKeyID alone embedded the public key:\n%s", signed)
	}
	opts := VerifyOptions{
		Property:       "attestationSignature",
		ResolveKeyFunc: mapResolver(map[string]crypto.PublicKey{"assay:ed": keys["ed25519"].Public()}),
	}
	results, err := Verify(signed, opts)
	if err != nil || results[0].KeyID != "assay:ed" || results[0].Thumbprint != byID.Thumbprint() {
		t.Errorf("keyId: %+v, %v", results, err)
	}
	if _, err := Verify(signed, VerifyOptions{Property: opts.Property}); !errors.Is(err, ErrNoKey) {
		t.Errorf("keyId without resolver: got %v, want ErrNoKey", err)
	}
	wrongKey := mapResolver(map[string]crypto.PublicKey{"assay:ed": keys["p256"].Public()})
	if _, err := Verify(signed, VerifyOptions{Property: opts.Property, ResolveKeyFunc: wrongKey}); !errors.Is(err, ErrKeyMismatch) {
		t.Errorf("keyId resolving to a P-256 key: got %v, want ErrKeyMismatch", err)
	}

	ca, leaf := issueCertificate(t, keys["p384"].Public())
	byCert, err := NewSigner(keys["p384"], "ES384", WithCertificatePath(leaf))
	if err != nil {
		t.Fatal(err)
	}
	signed, err = Sign([]byte(attestation), Target{}, byCert)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AddCert(ca)
	results, err = Verify(signed, VerifyOptions{Roots: roots})
	if err != nil || len(results[0].Certificates) != 1 || results[0].Thumbprint != byCert.Thumbprint() {
		t.Errorf("certificate path: %+v, %v", results, err)
	}
	if _, err := NewSigner(keys["p256"], "ES256", WithCertificatePath(leaf)); err == nil {
		t.Error("a certificate for another key was accepted")
	}
}

// issueCertificate makes a throw-away CA and a certificate it issues for pub.
func issueCertificate(t *testing.T, pub crypto.PublicKey) (ca, leaf *x509.Certificate) {
	t.Helper()
	caKey := freshKeys()["p256"]
	now := time.Now()
	caTemplate := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test root"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTemplate, caTemplate, caKey.Public(), caKey)
	if err != nil {
		t.Fatal(err)
	}
	if ca, err = x509.ParseCertificate(caDER); err != nil {
		t.Fatal(err)
	}
	leafTemplate := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "signer"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour), KeyUsage: x509.KeyUsageDigitalSignature,
	}
	leafDER, err := x509.CreateCertificate(rand.Reader, leafTemplate, ca, pub, caKey)
	if err != nil {
		t.Fatal(err)
	}
	if leaf, err = x509.ParseCertificate(leafDER); err != nil {
		t.Fatal(err)
	}
	return ca, leaf
}

// TestNestedSignatures signs an inner object, then the document around it: both verify,
// each over its own object, and changing the inner object breaks both.
func TestNestedSignatures(t *testing.T) {
	t.Parallel()
	keys := freshKeys()
	inner, _ := NewSigner(keys["p256"], "ES256")
	outer, _ := NewSigner(keys["ed25519"], "Ed25519")
	doc, err := Sign([]byte(attestation), Target{Pointer: "/declarations/attestations/0"}, inner)
	if err != nil {
		t.Fatal(err)
	}
	if doc, err = Sign(doc, Target{}, outer); err != nil {
		t.Fatal(err)
	}
	results, err := Verify(doc, VerifyOptions{})
	if err != nil || len(results) != 2 || results[0].Pointer != "" || results[1].Pointer != "/declarations/attestations/0" {
		t.Fatalf("got %+v, %v", results, err)
	}
	root, _ := Parse(doc)
	obj, _ := LookupObject(root, "/declarations/attestations/0")
	obj.Set("summary", "changed")
	results, _ = VerifyTree(root, VerifyOptions{})
	for _, r := range results {
		if r.Valid {
			t.Errorf("signature at %q survived a change inside it", r.Pointer)
		}
	}
	// VerifyObject looks only at the object it is given.
	obj.Set("summary", "Gültig ✓")
	results, err = VerifyObject(obj, VerifyOptions{})
	if err != nil || len(results) != 1 || results[0].Thumbprint != inner.Thumbprint() {
		t.Errorf("VerifyObject: %+v, %v", results, err)
	}
}
