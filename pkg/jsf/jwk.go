package jsf

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"math/big"
)

// ErrJWK is returned for a public key in JWK form that is malformed, unsupported or not a
// valid point.
var ErrJWK = errors.New("jsf: invalid JWK")

// b64 is the only base64 JSF uses: URL alphabet, no padding, and (Strict) no stray bits
// in the last character, so that each value has exactly one spelling.
var b64 = base64.RawURLEncoding.Strict()

// JWK is a public key in RFC 7517 form, as JSF's "publicKey" carries it: kty "EC" with crv
// P-256, P-384 or P-521 and coordinates x and y; kty "RSA" with n and e; or kty "OKP" with
// crv Ed25519 and x. The binary members are base64url without padding.
type JWK struct {
	Kty string `json:"kty"`
	Crv string `json:"crv,omitempty"`
	X   string `json:"x,omitempty"`
	Y   string `json:"y,omitempty"`
	N   string `json:"n,omitempty"`
	E   string `json:"e,omitempty"`
}

var curves = map[string]elliptic.Curve{"P-256": elliptic.P256(), "P-384": elliptic.P384(), "P-521": elliptic.P521()}

// NewJWK returns the JWK of an ECDSA (P-256, P-384, P-521), RSA or Ed25519 public key.
func NewJWK(pub crypto.PublicKey) (JWK, error) {
	switch k := pub.(type) {
	case *ecdsa.PublicKey:
		if k.Curve == nil || curves[k.Curve.Params().Name] == nil {
			return JWK{}, fmt.Errorf("%w: unsupported ECDSA curve", ErrJWK)
		}
		point, err := k.Bytes()
		if err != nil {
			return JWK{}, fmt.Errorf("%w: %w", ErrJWK, err)
		}
		size := (len(point) - 1) / 2
		return JWK{Kty: "EC", Crv: k.Curve.Params().Name, X: b64.EncodeToString(point[1 : 1+size]), Y: b64.EncodeToString(point[1+size:])}, nil
	case *rsa.PublicKey:
		if k.N == nil || k.E < 2 {
			return JWK{}, fmt.Errorf("%w: incomplete RSA key", ErrJWK)
		}
		return JWK{Kty: "RSA", N: b64.EncodeToString(k.N.Bytes()), E: b64.EncodeToString(big.NewInt(int64(k.E)).Bytes())}, nil
	case ed25519.PublicKey:
		if len(k) != ed25519.PublicKeySize {
			return JWK{}, fmt.Errorf("%w: Ed25519 key of %d bytes", ErrJWK, len(k))
		}
		return JWK{Kty: "OKP", Crv: "Ed25519", X: b64.EncodeToString(k)}, nil
	default:
		return JWK{}, fmt.Errorf("%w: unsupported key type %T", ErrJWK, pub)
	}
}

// PublicKey decodes the JWK into an *ecdsa.PublicKey, *rsa.PublicKey or
// ed25519.PublicKey. It refuses EC points that are not on the curve, coordinates of the
// wrong length and RSA integers with leading zero bytes: each key has one JWK, so its
// thumbprint is stable.
func (k JWK) PublicKey() (crypto.PublicKey, error) {
	switch k.Kty {
	case "EC":
		curve := curves[k.Crv]
		if curve == nil {
			return nil, fmt.Errorf("%w: unsupported EC curve %q", ErrJWK, k.Crv)
		}
		size := (curve.Params().BitSize + 7) / 8
		x, errX := decodeFixed(k.X, size)
		y, errY := decodeFixed(k.Y, size)
		if err := errors.Join(errX, errY); err != nil {
			return nil, fmt.Errorf("%w: %s coordinates: %w", ErrJWK, k.Crv, err)
		}
		pub, err := ecdsa.ParseUncompressedPublicKey(curve, append(append([]byte{4}, x...), y...))
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrJWK, err)
		}
		return pub, nil
	case "RSA":
		n, errN := decodeUnsigned(k.N)
		e, errE := decodeUnsigned(k.E)
		if err := errors.Join(errN, errE); err != nil {
			return nil, fmt.Errorf("%w: RSA: %w", ErrJWK, err)
		}
		if !e.IsInt64() || e.Int64() < 3 || e.Int64() > 1<<31-1 || e.Bit(0) == 0 {
			return nil, fmt.Errorf("%w: RSA exponent is not an odd number from 3 to 2^31-1", ErrJWK)
		}
		return &rsa.PublicKey{N: n, E: int(e.Int64())}, nil
	case "OKP":
		if k.Crv != "Ed25519" {
			return nil, fmt.Errorf("%w: unsupported OKP curve %q", ErrJWK, k.Crv)
		}
		x, err := decodeFixed(k.X, ed25519.PublicKeySize)
		if err != nil {
			return nil, fmt.Errorf("%w: Ed25519: %w", ErrJWK, err)
		}
		return ed25519.PublicKey(x), nil
	default:
		return nil, fmt.Errorf("%w: unsupported kty %q", ErrJWK, k.Kty)
	}
}

// Thumbprint returns the RFC 7638 SHA-256 thumbprint of the key, base64url without
// padding: a short, stable name for the key, fit for a keyId or a trust list. It returns
// "" for a kty other than EC, RSA and OKP.
func Thumbprint(k JWK) string {
	var members []Member
	switch k.Kty {
	case "EC":
		members = []Member{{"crv", k.Crv}, {"kty", k.Kty}, {"x", k.X}, {"y", k.Y}}
	case "RSA":
		members = []Member{{"e", k.E}, {"kty", k.Kty}, {"n", k.N}}
	case "OKP":
		members = []Member{{"crv", k.Crv}, {"kty", k.Kty}, {"x", k.X}}
	default:
		return ""
	}
	// The members are strings, so MarshalCanonical cannot fail on valid UTF-8; it
	// writes exactly RFC 7638's form: sorted, no whitespace.
	data, err := MarshalCanonical(NewObject(members...))
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(data)
	return b64.EncodeToString(sum[:])
}

// object is the JWK as JSF embeds it, members in the conventional order.
func (k JWK) object() *Object {
	switch k.Kty {
	case "RSA":
		return NewObject(Member{"kty", k.Kty}, Member{"n", k.N}, Member{"e", k.E})
	case "OKP":
		return NewObject(Member{"kty", k.Kty}, Member{"crv", k.Crv}, Member{"x", k.X})
	default:
		return NewObject(Member{"kty", k.Kty}, Member{"crv", k.Crv}, Member{"x", k.X}, Member{"y", k.Y})
	}
}

// privateMembers are the RFC 7518 private-key members: a "publicKey" carrying any of them
// has leaked its private key, and verifying with it would bless that.
var privateMembers = []string{"d", "p", "q", "dp", "dq", "qi", "oth", "k"}

// jwkFromObject reads a "publicKey" object. Members other than the key's own (kid, use,
// alg, ...) are allowed, as JSF allows them, and are covered by the signature anyway.
func jwkFromObject(obj *Object) (JWK, crypto.PublicKey, error) {
	for _, name := range privateMembers {
		if obj.Has(name) {
			return JWK{}, nil, fmt.Errorf("%w: publicKey carries private key member %q", ErrJWK, name)
		}
	}
	str := func(name string) (string, error) {
		v, ok := obj.Get(name)
		if !ok {
			return "", nil
		}
		s, ok := v.(string)
		if !ok {
			return "", fmt.Errorf("%w: member %q is a %s, not a string", ErrJWK, name, typeName(v))
		}
		return s, nil
	}
	var k JWK
	var errs []error
	for _, f := range []struct {
		name string
		dst  *string
	}{{"kty", &k.Kty}, {"crv", &k.Crv}, {"x", &k.X}, {"y", &k.Y}, {"n", &k.N}, {"e", &k.E}} {
		s, err := str(f.name)
		*f.dst = s
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return JWK{}, nil, err
	}
	pub, err := k.PublicKey()
	if err != nil {
		return JWK{}, nil, err
	}
	return k, pub, nil
}

func decodeFixed(s string, size int) ([]byte, error) {
	b, err := b64.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("not base64url without padding: %w", err)
	}
	if len(b) != size {
		return nil, fmt.Errorf("%d bytes, want %d", len(b), size)
	}
	return b, nil
}

func decodeUnsigned(s string) (*big.Int, error) {
	b, err := b64.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("not base64url without padding: %w", err)
	}
	if len(b) == 0 || b[0] == 0 {
		return nil, errors.New("integer is empty or has a leading zero byte")
	}
	return new(big.Int).SetBytes(b), nil
}
