package jsf

import (
	"crypto/rsa"
	"encoding/json"
	"errors"
	"math/big"
	"testing"
)

// TestMultipleSigners: two signers in either order both verify; removing one leaves the
// other valid; adding a third leaves the first two valid.
func TestMultipleSigners(t *testing.T) {
	t.Parallel()
	keys := freshKeys()
	a, _ := NewSigner(keys["p256"], "ES256")
	b, _ := NewSigner(keys["rsa"], "PS384", WithKeyID("b"), WithPublicKey())
	c, _ := NewSigner(keys["ed25519"], "Ed25519")
	for _, order := range [][]*Signer{{a, b}, {b, a}} {
		doc := []byte(attestation)
		var err error
		for _, s := range order {
			if doc, err = AddSigner(doc, Target{}, s); err != nil {
				t.Fatal(err)
			}
		}
		expectSigners(t, doc, order[0], order[1])
		checkTampering(t, "two signers", doc, "", VerifyOptions{})

		for drop := range order {
			root := mustParseObject(t, doc)
			wrapper := mustGet(t, root, DefaultProperty).(*Object)
			signers := mustGet(t, wrapper, "signers").([]any)
			wrapper.Set("signers", []any{signers[1-drop]})
			expectSigners(t, mustMarshal(t, root), order[1-drop])
		}

		third, err := AddSigner(doc, Target{}, c)
		if err != nil {
			t.Fatal(err)
		}
		expectSigners(t, third, order[0], order[1], c)
	}
}

// TestSignatureChain: each link signs the earlier ones, so the chain verifies as built
// but not once a link is removed from the middle.
func TestSignatureChain(t *testing.T) {
	t.Parallel()
	keys := freshKeys()
	a, _ := NewSigner(keys["p521"], "ES512")
	b, _ := NewSigner(keys["rsa"], "RS256")
	c, _ := NewSigner(keys["ed25519"], "Ed25519")
	doc := []byte(attestation)
	var err error
	for _, s := range []*Signer{a, b, c} {
		if doc, err = AppendChain(doc, Target{Pointer: "/declarations/attestations/1"}, s); err != nil {
			t.Fatal(err)
		}
	}
	results, err := Verify(doc, VerifyOptions{})
	if err != nil || len(results) != 3 {
		t.Fatalf("chain: %+v, %v", results, err)
	}
	for i, s := range []*Signer{a, b, c} {
		if r := results[i]; r.Form != FormChain || r.Index != i || r.Thumbprint != s.Thumbprint() || r.Pointer != "/declarations/attestations/1" {
			t.Errorf("link %d: %+v", i, r)
		}
	}
	checkTampering(t, "chain", doc, "/declarations/attestations/1", VerifyOptions{})

	root, _ := Parse(doc)
	wrapper := mustGet(t, mustLookupObject(t, root, "/declarations/attestations/1"), DefaultProperty).(*Object)
	chain := mustGet(t, wrapper, "chain").([]any)
	wrapper.Set("chain", []any{chain[0], chain[2]})
	results, _ = VerifyTree(root, VerifyOptions{})
	if !results[0].Valid || results[1].Valid {
		t.Errorf("chain without its middle link: %+v", results)
	}
	if _, err := AddSigner(doc, Target{Pointer: "/declarations/attestations/1"}, a); !errors.Is(err, ErrAlreadySigned) {
		t.Errorf("adding a multiple-signature signer to a chain: got %v, want ErrAlreadySigned", err)
	}
}

func expectSigners(t *testing.T, doc []byte, signers ...*Signer) {
	t.Helper()
	results, err := Verify(doc, VerifyOptions{})
	if err != nil || len(results) != len(signers) {
		t.Fatalf("got %+v, %v; want %d valid signers", results, err, len(signers))
	}
	for i, s := range signers {
		if r := results[i]; !r.Valid || r.Form != FormMultiple || r.Index != i || r.Thumbprint != s.Thumbprint() || r.KeyID != s.KeyID() {
			t.Errorf("signer %d: %+v", i, r)
		}
	}
}

// TestReproduceSpecVectors re-creates the RS256 signatures of the JSF specification
// (PKCS #1 v1.5 is deterministic) byte for byte: single with keyId and with an embedded
// key, the second of multiple signers, and the second link of a chain.
func TestReproduceSpecVectors(t *testing.T) {
	t.Parallel()
	key := specRSAKey(t)
	byID, err := NewSigner(key, "RS256", WithKeyID("example.com:r2048"))
	if err != nil {
		t.Fatal(err)
	}
	embedded, err := NewSigner(key, "RS256")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		file   string
		signer *Signer
		add    func(*Object, string, *Signer) error
	}{
		{"r2048#rs256@kid.json", byID, SignObject},
		{"r2048#rs256@jwk.json", embedded, SignObject},
		{"p256#es256,r2048#rs256@mult-jwk.json", embedded, AddSignerObject},
		{"p256#es256,r2048#rs256@chai-jwk.json", embedded, AppendChainObject},
	}
	for _, tt := range tests {
		want, err := Canonicalize(readShared(t, "interop", "jsf-spec", tt.file))
		if err != nil {
			t.Fatal(err)
		}
		// Start from the vector without its RS256 signer (the last one).
		obj := mustParseObject(t, want)
		if wrapper := mustGet(t, obj, DefaultProperty).(*Object); wrapper.Has("algorithm") {
			obj.Delete(DefaultProperty)
		} else {
			name := "signers"
			if wrapper.Has("chain") {
				name = "chain"
			}
			wrapper.Set(name, mustGet(t, wrapper, name).([]any)[:1])
		}
		if err := tt.add(obj, DefaultProperty, tt.signer); err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		got, err := MarshalCanonical(obj)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s: reproduced\n%s\nwant\n%s", tt.file, got, want)
		}
	}
}

// specRSAKey reads the private RSA key of the JSF specification (a JWK).
func specRSAKey(t *testing.T) *rsa.PrivateKey {
	t.Helper()
	var jwk map[string]string
	if err := json.Unmarshal(readShared(t, "interop", "jsf-spec", "r2048privatekey.jwk"), &jwk); err != nil {
		t.Fatal(err)
	}
	n := func(name string) *big.Int {
		b, err := b64.DecodeString(jwk[name])
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return new(big.Int).SetBytes(b)
	}
	key := &rsa.PrivateKey{
		PublicKey: rsa.PublicKey{N: n("n"), E: int(n("e").Int64())},
		D:         n("d"),
		Primes:    []*big.Int{n("p"), n("q")},
	}
	if err := key.Validate(); err != nil {
		t.Fatal(err)
	}
	key.Precompute()
	return key
}
