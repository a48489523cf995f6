package jsf

import (
	"crypto"
	"crypto/rand"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
)

// Signer signs JSF signatures with one key and one algorithm. It is safe for concurrent
// use when its crypto.Signer is.
type Signer struct {
	key      crypto.Signer
	alg      algorithm
	jwk      JWK
	keyID    string
	embedKey bool
	certs    []*x509.Certificate
	random   io.Reader
}

// SignerOption adjusts how a Signer names its key.
type SignerOption func(*signerConfig)

type signerConfig struct {
	keyID    string
	embedKey bool
	certs    []*x509.Certificate
}

// WithKeyID puts "keyId": id into each signature and, unless WithPublicKey is also given,
// leaves the public key out: the verifier is expected to know the key by that name.
func WithKeyID(id string) SignerOption {
	return func(c *signerConfig) { c.keyID = id }
}

// WithPublicKey embeds the public key as a JWK ("publicKey") even when WithKeyID is
// given. Without WithKeyID and WithCertificatePath the key is embedded anyway.
func WithPublicKey() SignerOption {
	return func(c *signerConfig) { c.embedKey = true }
}

// WithCertificatePath names the key by an X.509 certificate path ("certificatePath"),
// the signer's certificate first and each certificate issued by the next; the root may be
// left out. The path replaces the embedded public key, because a signature carrying both
// is ambiguous and Verify refuses it.
func WithCertificatePath(certs ...*x509.Certificate) SignerOption {
	return func(c *signerConfig) { c.certs = certs }
}

// NewSigner returns a Signer for key with the JSF algorithm alg (see Algorithms). It
// refuses HMAC, Ed448 and unknown algorithms, keys that do not suit alg, and RSA keys
// shorter than MinRSABits.
func NewSigner(key crypto.Signer, alg string, opts ...SignerOption) (*Signer, error) {
	if key == nil {
		return nil, errors.New("jsf: NewSigner: nil key")
	}
	a, err := lookupAlgorithm(alg)
	if err != nil {
		return nil, err
	}
	pub := key.Public()
	if err := a.checkKey(pub); err != nil {
		return nil, err
	}
	jwk, err := NewJWK(pub)
	if err != nil {
		return nil, err
	}
	var cfg signerConfig
	for _, opt := range opts {
		opt(&cfg)
	}
	s := &Signer{key: key, alg: a, jwk: jwk, keyID: cfg.keyID, certs: cfg.certs, random: rand.Reader}
	s.embedKey = cfg.embedKey || (cfg.keyID == "" && len(cfg.certs) == 0)
	if len(cfg.certs) > 0 {
		if cfg.embedKey {
			return nil, errors.New("jsf: NewSigner: WithPublicKey and WithCertificatePath exclude each other")
		}
		leaf, ok := cfg.certs[0].PublicKey.(interface{ Equal(crypto.PublicKey) bool })
		if !ok || !leaf.Equal(pub) {
			return nil, errors.New("jsf: NewSigner: the first certificate of the path is not for this key")
		}
	}
	return s, nil
}

// Algorithm returns the JSF algorithm name.
func (s *Signer) Algorithm() string { return s.alg.name }

// PublicKey returns the signer's public key as a JWK.
func (s *Signer) PublicKey() JWK { return s.jwk }

// Thumbprint returns the RFC 7638 thumbprint of the signer's public key.
func (s *Signer) Thumbprint() string { return Thumbprint(s.jwk) }

// KeyID returns the keyId put into signatures, or "".
func (s *Signer) KeyID() string { return s.keyID }

// unsignedObject is the signer's JSF signature object before "value" is added.
func (s *Signer) unsignedObject() *Object {
	obj := NewObject(Member{"algorithm", s.alg.name})
	if s.keyID != "" {
		obj.Set("keyId", s.keyID)
	}
	if s.embedKey {
		obj.Set("publicKey", s.jwk.object())
	}
	if len(s.certs) > 0 {
		obj.Set("certificatePath", encodeCertificatePath(s.certs))
	}
	return obj
}

// signValue signs data and returns the JSF "value". It checks its own signature before
// returning it, so that a crypto.Signer whose Public() does not match its private key
// (a misconfigured HSM slot, say) cannot produce documents nobody can verify.
func (s *Signer) signValue(data []byte) (string, error) {
	sig, err := s.alg.sign(s.key, s.random, data)
	if err != nil {
		return "", err
	}
	pub, err := s.jwk.PublicKey()
	if err != nil {
		return "", err
	}
	if err := s.alg.verify(pub, data, sig); err != nil {
		return "", fmt.Errorf("jsf: the key's signature does not verify with its own public key: %w", err)
	}
	return b64.EncodeToString(sig), nil
}
