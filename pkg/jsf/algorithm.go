package jsf

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	_ "crypto/sha256" // registers SHA-256 for crypto.Hash.New
	_ "crypto/sha512" // registers SHA-384 and SHA-512
	"encoding/asn1"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strings"
)

// MinRSABits is the smallest RSA modulus this package signs or verifies with.
const MinRSABits = 2048

// Errors about algorithms and keys. They are wrapped with detail, so match with errors.Is.
var (
	// ErrHMAC refuses HS256, HS384 and HS512: a shared secret proves nothing to a
	// third party, and attestations are checked by third parties.
	ErrHMAC = errors.New("jsf: HMAC algorithms are not allowed (a shared secret cannot prove who signed)")
	// ErrUnsupportedAlgorithm is any other algorithm outside Algorithms(), Ed448
	// included.
	ErrUnsupportedAlgorithm = errors.New("jsf: unsupported algorithm")
	// ErrKeyMismatch is a key of the wrong type or curve for the algorithm.
	ErrKeyMismatch = errors.New("jsf: key does not suit the algorithm")
	// ErrWeakKey is an RSA key shorter than MinRSABits.
	ErrWeakKey = errors.New("jsf: RSA key is shorter than 2048 bits")
	// ErrBadSignature is a signature value that does not verify over the data.
	ErrBadSignature = errors.New("jsf: signature does not verify")
)

type family int

const (
	familyECDSA family = iota
	familyRSAPKCS1
	familyRSAPSS
	familyEd25519
)

// algorithm is one JWA/RFC 8037 signature algorithm as JSF names it.
type algorithm struct {
	name   string
	family family
	hash   crypto.Hash // zero for Ed25519, which hashes internally
	curve  string      // JWK curve name for ECDSA
	size   int         // ECDSA coordinate size in bytes: r and s are padded to it
}

var algorithms = map[string]algorithm{
	"ES256":   {name: "ES256", family: familyECDSA, hash: crypto.SHA256, curve: "P-256", size: 32},
	"ES384":   {name: "ES384", family: familyECDSA, hash: crypto.SHA384, curve: "P-384", size: 48},
	"ES512":   {name: "ES512", family: familyECDSA, hash: crypto.SHA512, curve: "P-521", size: 66},
	"RS256":   {name: "RS256", family: familyRSAPKCS1, hash: crypto.SHA256},
	"RS384":   {name: "RS384", family: familyRSAPKCS1, hash: crypto.SHA384},
	"RS512":   {name: "RS512", family: familyRSAPKCS1, hash: crypto.SHA512},
	"PS256":   {name: "PS256", family: familyRSAPSS, hash: crypto.SHA256},
	"PS384":   {name: "PS384", family: familyRSAPSS, hash: crypto.SHA384},
	"PS512":   {name: "PS512", family: familyRSAPSS, hash: crypto.SHA512},
	"Ed25519": {name: "Ed25519", family: familyEd25519},
}

// Algorithms lists the algorithm names this package signs and verifies with.
func Algorithms() []string {
	return []string{"ES256", "ES384", "ES512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "Ed25519"}
}

func lookupAlgorithm(name string) (algorithm, error) {
	if alg, ok := algorithms[name]; ok {
		return alg, nil
	}
	switch {
	case strings.HasPrefix(name, "HS"):
		return algorithm{}, fmt.Errorf("%w: %q", ErrHMAC, name)
	case name == "Ed448":
		return algorithm{}, fmt.Errorf("%w: %q (Ed448 is not available in the Go standard library)", ErrUnsupportedAlgorithm, name)
	case name == "EdDSA":
		return algorithm{}, fmt.Errorf("%w: %q (JSF names the curve: use \"Ed25519\")", ErrUnsupportedAlgorithm, name)
	default:
		return algorithm{}, fmt.Errorf("%w: %q", ErrUnsupportedAlgorithm, name)
	}
}

// checkKey refuses a public key that does not belong to the algorithm, so that an ES256
// signature can never be checked with a P-521 key or an RSA key half the required size.
func (a algorithm) checkKey(pub crypto.PublicKey) error {
	switch a.family {
	case familyECDSA:
		k, ok := pub.(*ecdsa.PublicKey)
		if !ok || k.Curve == nil || k.Curve.Params().Name != a.curve {
			return fmt.Errorf("%w: %s needs an ECDSA %s key, got %s", ErrKeyMismatch, a.name, a.curve, describeKey(pub))
		}
	case familyRSAPKCS1, familyRSAPSS:
		k, ok := pub.(*rsa.PublicKey)
		if !ok || k.N == nil {
			return fmt.Errorf("%w: %s needs an RSA key, got %s", ErrKeyMismatch, a.name, describeKey(pub))
		}
		if k.N.BitLen() < MinRSABits {
			return fmt.Errorf("%w: %d bits", ErrWeakKey, k.N.BitLen())
		}
	case familyEd25519:
		k, ok := pub.(ed25519.PublicKey)
		if !ok || len(k) != ed25519.PublicKeySize {
			return fmt.Errorf("%w: %s needs an Ed25519 key, got %s", ErrKeyMismatch, a.name, describeKey(pub))
		}
	}
	return nil
}

func describeKey(pub crypto.PublicKey) string {
	switch k := pub.(type) {
	case *ecdsa.PublicKey:
		if k.Curve == nil {
			return "an ECDSA key without a curve"
		}
		return "an ECDSA " + k.Curve.Params().Name + " key"
	case *rsa.PublicKey:
		return "an RSA key"
	case ed25519.PublicKey:
		return "an Ed25519 key"
	default:
		return fmt.Sprintf("a %T", pub)
	}
}

func (a algorithm) digest(data []byte) []byte {
	if a.family == familyEd25519 {
		return data
	}
	h := a.hash.New()
	h.Write(data)
	return h.Sum(nil)
}

func (a algorithm) signerOpts() crypto.SignerOpts {
	if a.family == familyRSAPSS {
		return &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash, Hash: a.hash}
	}
	return a.hash // crypto.Hash(0) for Ed25519 means "sign the message itself"
}

// verify checks a JSF signature value over data; the key has passed checkKey.
func (a algorithm) verify(pub crypto.PublicKey, data, sig []byte) error {
	digest := a.digest(data)
	var ok bool
	switch a.family {
	case familyECDSA:
		// JWA signatures are r‖s, each exactly the coordinate size.
		if len(sig) != 2*a.size {
			return fmt.Errorf("%w: %s value is %d bytes, want %d", ErrBadSignature, a.name, len(sig), 2*a.size)
		}
		der, err := asn1.Marshal(ecdsaSignature{
			R: new(big.Int).SetBytes(sig[:a.size]),
			S: new(big.Int).SetBytes(sig[a.size:]),
		})
		if err != nil {
			return fmt.Errorf("%w: %w", ErrBadSignature, err)
		}
		ok = ecdsa.VerifyASN1(pub.(*ecdsa.PublicKey), digest, der)
	case familyRSAPKCS1:
		ok = rsa.VerifyPKCS1v15(pub.(*rsa.PublicKey), a.hash, digest, sig) == nil
	case familyRSAPSS:
		ok = rsa.VerifyPSS(pub.(*rsa.PublicKey), a.hash, digest, sig, &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash}) == nil
	case familyEd25519:
		ok = ed25519.Verify(pub.(ed25519.PublicKey), digest, sig)
	}
	if !ok {
		return ErrBadSignature
	}
	return nil
}

// sign produces a JSF signature value over data with key, whose public half has passed
// checkKey.
func (a algorithm) sign(key crypto.Signer, random io.Reader, data []byte) ([]byte, error) {
	sig, err := key.Sign(random, a.digest(data), a.signerOpts())
	if err != nil {
		return nil, fmt.Errorf("jsf: %s signing: %w", a.name, err)
	}
	if a.family != familyECDSA {
		return sig, nil
	}
	// crypto.Signer returns ECDSA signatures as ASN.1; JWA wants fixed-size r‖s.
	var parsed ecdsaSignature
	rest, err := asn1.Unmarshal(sig, &parsed)
	if err != nil || len(rest) != 0 || parsed.R.Sign() <= 0 || parsed.S.Sign() <= 0 ||
		parsed.R.BitLen() > 8*a.size || parsed.S.BitLen() > 8*a.size {
		return nil, fmt.Errorf("jsf: %s signing: the key returned a malformed ECDSA signature", a.name)
	}
	raw := make([]byte, 2*a.size)
	parsed.R.FillBytes(raw[:a.size])
	parsed.S.FillBytes(raw[a.size:])
	return raw, nil
}

type ecdsaSignature struct {
	R, S *big.Int
}
