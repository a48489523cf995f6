package jsf

import (
	"crypto"
	"errors"
	"testing"
)

func TestThumbprint(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		jwk  JWK
		want string
	}{
		{
			name: "RFC 7638 §3.1",
			jwk:  JWK{Kty: "RSA", E: "AQAB", N: "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw"},
			want: "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs",
		},
		{
			name: "RFC 8037 A.3",
			jwk:  JWK{Kty: "OKP", Crv: "Ed25519", X: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"},
			want: "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k",
		},
		{name: "unknown kty", jwk: JWK{Kty: "oct"}, want: ""},
	}
	for _, tt := range tests {
		if got := Thumbprint(tt.jwk); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestJWKRoundTrip(t *testing.T) {
	t.Parallel()
	for name, key := range freshKeys() {
		jwk, err := NewJWK(key.Public())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		pub, err := jwk.PublicKey()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !pub.(interface{ Equal(crypto.PublicKey) bool }).Equal(key.Public()) {
			t.Errorf("%s: the JWK decodes to another key", name)
		}
		obj := jwk.object()
		back, _, err := jwkFromObject(obj)
		if err != nil || back != jwk {
			t.Errorf("%s: embedded form reads back as %+v, %v", name, back, err)
		}
	}
}

func TestJWKRefuses(t *testing.T) {
	t.Parallel()
	p256 := JWK{Kty: "EC", Crv: "P-256", X: "6BKxpty8cI-exDzCkh-goU6dXq3MbcY0cd1LaAxiNrU", Y: "mCbcvUzm44j3Lt2b5BPyQloQ91tf2D2V-gzeUxWaUdg"}
	if _, err := p256.PublicKey(); err != nil {
		t.Fatalf("the spec's P-256 key: %v", err)
	}
	offCurve := p256
	offCurve.Y = "mCbcvUzm44j3Lt2b5BPyQloQ91tf2D2V-gzeUxWaUdh"
	shortX := p256
	shortX.X = "6BKxpty8cI-exDzCkh-goU6dXq3MbcY0cd1LaAxiNg"
	padded := p256
	padded.X += "="
	tests := []struct {
		name string
		jwk  JWK
	}{
		{"point not on the curve", offCurve},
		{"short coordinate", shortX},
		{"padded base64", padded},
		{"P-384 coordinates on P-256", JWK{Kty: "EC", Crv: "P-256", X: "o4lIdIXzdJro4jU9g-2q-__i5WcutpJaWwOeSgKL8x6nxKWOPD5rH-POQhJ79l6t", Y: "MLnyLIGdTO2feJkCW3rWWKG3elhi1Zmbp068Ejb_1LuI-2cNQsRUqb16TfK588_N"}},
		{"secp256k1", JWK{Kty: "EC", Crv: "secp256k1", X: p256.X, Y: p256.Y}},
		{"RSA modulus with a leading zero", JWK{Kty: "RSA", N: "AKbSmchT0g", E: "AQAB"}},
		{"RSA even exponent", JWK{Kty: "RSA", N: "ptKZyFPStvmOlb0WihOBhlHUr6wF", E: "Ag"}},
		{"RSA exponent with a leading zero", JWK{Kty: "RSA", N: "ptKZyFPStvmOlb0WihOBhlHUr6wF", E: "AAEAAQ"}},
		{"Ed448", JWK{Kty: "OKP", Crv: "Ed448", X: "IUkRrGrNQFnHA-pIcgwzTxyL4BlWyHqC6LkZbgyHMsM14mC2NfpW9QV_Ao7mkQXIZM2OCgCimEQA"}},
		{"Ed25519 key of 31 bytes", JWK{Kty: "OKP", Crv: "Ed25519", X: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHUQ"}},
		{"symmetric key", JWK{Kty: "oct"}},
	}
	for _, tt := range tests {
		if _, err := tt.jwk.PublicKey(); !errors.Is(err, ErrJWK) {
			t.Errorf("%s: got %v, want ErrJWK", tt.name, err)
		}
	}
	withPrivate := p256.object()
	withPrivate.Set("d", "6XxMFXhcYT5QN9w5TIg2aSKsbcj-pj4BnZkK7ZOt4B8")
	if _, _, err := jwkFromObject(withPrivate); !errors.Is(err, ErrJWK) {
		t.Errorf("publicKey with a private member: got %v, want ErrJWK", err)
	}
	notString := p256.object()
	notString.Set("x", 1.0)
	if _, _, err := jwkFromObject(notString); !errors.Is(err, ErrJWK) {
		t.Errorf("publicKey with a numeric coordinate: got %v, want ErrJWK", err)
	}
}
