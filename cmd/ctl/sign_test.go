package main

import (
	"crypto"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"io"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/attest"
	"github.com/assay-dev/assay/pkg/cyclonedx"
	"github.com/assay-dev/assay/pkg/jsf"
)

func rsaKey(t testing.TB, bits int) *rsa.PrivateKey {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, bits)
	require.NoError(t, err)
	return key
}

func ed25519Key(t testing.TB) ed25519.PrivateKey {
	t.Helper()
	_, key, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	return key
}

// TestSignIsAccepted: the signer `sign` writes is what the service accepts, for every key
// type, and the sealed document verifies.
func TestSignIsAccepted(t *testing.T) {
	t.Parallel()
	a := newAttestation(t)
	frozen := a.writeFile(t, "frozen.cdx.json", a.frozen)
	rsa2048 := rsaKey(t, 2048)
	p256 := ecdsaKey(t, elliptic.P256())
	sec1, err := x509.MarshalECPrivateKey(p256)
	require.NoError(t, err)
	pkcs1 := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(rsa2048)})
	for _, tc := range []struct {
		name string
		pem  []byte
		alg  string // --alg; "" for the default
		want string
	}{
		{"P-256", pkcs8PEM(t, p256), "", "ES256"},
		{"P-384", pkcs8PEM(t, ecdsaKey(t, elliptic.P384())), "", "ES384"},
		{"P-521", pkcs8PEM(t, ecdsaKey(t, elliptic.P521())), "", "ES512"},
		{"Ed25519", pkcs8PEM(t, ed25519Key(t)), "", "Ed25519"},
		{"RSA", pkcs8PEM(t, rsa2048), "", "PS256"},
		{"RSA with --alg RS256", pkcs8PEM(t, rsa2048), "RS256", "RS256"},
		{"RSA with --alg PS512", pkcs8PEM(t, rsa2048), "PS512", "PS512"},
		{"SEC 1 EC key after its parameters", append([]byte("-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n"),
			pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: sec1})...), "", "ES256"},
		{"PKCS#1 RSA key", pkcs1, "", "PS256"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			args := []string{"sign", frozen, "--key", a.writeFile(t, tc.name+".pem", tc.pem)}
			if tc.alg != "" {
				args = append(args, "--alg", tc.alg)
			}
			out, status := code(t, args...)
			require.Equal(t, 0, status, out)
			signer, err := jsf.ParseObject([]byte(out))
			require.NoError(t, err, out)
			alg, _ := signer.Get("algorithm")
			require.Equal(t, tc.want, alg)

			signed, _, err := attest.AddDigitalSignature(a.frozen, signer, attest.Signatory{SlotURN: janeDoe.SlotURN, Name: "Jane Doe", SignedAt: signedAt})
			require.NoError(t, err)
			sealed := a.alanSignsAndSeal(t, signed)
			r := attest.Verify(sealed, attest.Options{PlatformKeys: []jsf.JWK{a.platform.PublicKey()}})
			require.True(t, r.OK, "%+v", r)
		})
	}
}

func TestSignWritesTheOutputFile(t *testing.T) {
	t.Parallel()
	a := newAttestation(t)
	key := ed25519Key(t)
	outPath := filepath.Join(a.dir, "signer.json")
	out, status := code(t, "sign", a.writeFile(t, "frozen.json", a.frozen), "--key", a.writeFile(t, "key.pem", pkcs8PEM(t, key)), "-o", outPath)
	require.Equal(t, 0, status, out)
	jwk, err := jsf.NewJWK(key.Public())
	require.NoError(t, err)
	require.Contains(t, out, "wrote the Ed25519 signer of key "+jsf.Thumbprint(jwk)+" to "+outPath)
	signer, err := jsf.ParseObject(mustRead(t, outPath))
	require.NoError(t, err)
	_, _, err = attest.AddDigitalSignature(a.frozen, signer, janeDoe)
	require.NoError(t, err)
}

// TestSignRefuses: keys that cannot sign, and documents that are not a frozen statement,
// are usage errors with a message saying what to do.
func TestSignRefuses(t *testing.T) {
	t.Parallel()
	a := newAttestation(t)
	frozen := a.writeFile(t, "frozen.json", a.frozen)
	p256 := ecdsaKey(t, elliptic.P256())
	goodKey := a.writeFile(t, "good.pem", pkcs8PEM(t, p256))
	spki, err := x509.MarshalPKIXPublicKey(p256.Public())
	require.NoError(t, err)
	legacyEncrypted := "-----BEGIN EC PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00112233445566778899AABBCCDDEEFF\n\nAAAA\n-----END EC PRIVATE KEY-----\n"
	for _, tc := range []struct {
		name    string
		doc     []byte // the file to sign; nil is the frozen statement
		key     []byte // the key file; nil is a good P-256 key
		args    []string
		message string
	}{
		{"encrypted PKCS#8 key", nil, pem.EncodeToMemory(&pem.Block{Type: "ENCRYPTED PRIVATE KEY", Bytes: []byte{0x30, 0}}), nil, "encrypted"},
		{"encrypted legacy PEM key", nil, []byte(legacyEncrypted), nil, "encrypted"},
		{"public key", nil, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: spki}), nil, "public key, not a private key"},
		{"not PEM", nil, []byte("hello"), nil, "no private key found"},
		{"RSA key of 1024 bits", nil, pkcs8PEM(t, rsaKey(t, 1024)), nil, "2048"},
		{"algorithm for another key type", nil, nil, []string{"--alg", "ES384"}, "ES384"},
		{"unknown algorithm", nil, nil, []string{"--alg", "HS256"}, "HS256"},
		{"sealed document", a.sealed, nil, nil, "sealed already"},
		{"statement not frozen", a.statement, nil, nil, "not frozen"},
		{"not an attestation", []byte(`{"bomFormat":"CycloneDX"}`), nil, nil, "no declarations"},
		{"not JSON", []byte("hello"), nil, nil, "not a JSON document"},
		{"no key", nil, nil, []string{"--key", ""}, "--key is required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			doc, key := frozen, goodKey
			if tc.doc != nil {
				doc = a.writeFile(t, tc.name+".json", tc.doc)
			}
			if tc.key != nil {
				key = a.writeFile(t, tc.name+".pem", tc.key)
			}
			_, err := execute(t, nil, append([]string{"sign", doc, "--key", key}, tc.args...)...)
			require.Error(t, err)
			require.Equal(t, exitUsage, exitStatus(err, io.Discard))
			require.ErrorContains(t, err, tc.message)
		})
	}
}

// signerFor is the signer `sign` writes for key over a frozen statement.
func signerFor(t *testing.T, a *attestation, key crypto.Signer) *jsf.Object {
	t.Helper()
	out, status := code(t, "sign", a.writeFile(t, "frozen-for-sign.json", a.frozen), "--key", a.writeFile(t, "sign-key.pem", pkcs8PEM(t, key)))
	require.Equal(t, 0, status, out)
	signer, err := jsf.ParseObject([]byte(out))
	require.NoError(t, err)
	return signer
}

// TestSignAfterAnotherSignatory: once a signatory has signed, the service serves the
// statement with their signer and record; a second signatory's signer from `sign` signs
// as if alone, is accepted beside the first, and both verify.
func TestSignAfterAnotherSignatory(t *testing.T) {
	t.Parallel()
	a := newAttestation(t)
	signedOnce := a.jane
	key := a.writeFile(t, "key.pem", pkcs8PEM(t, ed25519Key(t)))
	out, status := code(t, "sign", a.writeFile(t, "signed-once.json", signedOnce), "--key", key)
	require.Equal(t, 0, status, out)
	signer, err := jsf.ParseObject([]byte(out))
	require.NoError(t, err)
	twice, _, err := attest.AddDigitalSignature(signedOnce, signer, attest.Signatory{SlotURN: cyclonedx.SignatoryURN("sg_2"), Name: "Alan Assessor", SignedAt: signedAt})
	require.NoError(t, err)
	sealed, err := attest.Seal(twice, a.platform)
	require.NoError(t, err)
	r := attest.Verify(sealed, attest.Options{PlatformKeys: []jsf.JWK{a.platform.PublicKey()}})
	require.True(t, r.OK, "%+v", r)

	// The same key again: refused before anything is written, as the service would.
	_, err = execute(t, nil, "sign", a.writeFile(t, "signed-twice.json", twice), "--key", key)
	require.ErrorContains(t, err, "signed already")
	require.Equal(t, exitUsage, exitStatus(err, io.Discard))
}
