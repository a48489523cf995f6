package jsf

import (
	"crypto"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"time"
)

// ErrCertificatePath is returned when a "certificatePath" cannot be decoded or does not
// lead to a configured root.
var ErrCertificatePath = errors.New("jsf: certificate path")

// encodeCertificatePath returns the JSF "certificatePath" form of certs: each certificate's
// DER in base64url without padding, signer first.
func encodeCertificatePath(certs []*x509.Certificate) []any {
	out := make([]any, len(certs))
	for i, c := range certs {
		out[i] = base64.RawURLEncoding.EncodeToString(c.Raw)
	}
	return out
}

// decodeCertificatePath reads a "certificatePath": base64url DER certificates, the
// signer's first, each issued by the next.
func decodeCertificatePath(path []string) ([]*x509.Certificate, error) {
	certs := make([]*x509.Certificate, len(path))
	for i, s := range path {
		der, err := b64.DecodeString(s)
		if err != nil {
			return nil, fmt.Errorf("%w: certificate %d is not base64url without padding: %w", ErrCertificatePath, i, err)
		}
		if certs[i], err = x509.ParseCertificate(der); err != nil {
			return nil, fmt.Errorf("%w: certificate %d: %w", ErrCertificatePath, i, err)
		}
	}
	return certs, nil
}

// verifyCertificatePath checks that the path leads from the signer's certificate to one of
// the roots at the given time (now when zero) and returns the signer's public key. Any
// extended key usage is accepted: JSF says nothing about it, and which certificates may
// sign attestations is the caller's policy.
func verifyCertificatePath(certs []*x509.Certificate, roots *x509.CertPool, at time.Time) (crypto.PublicKey, error) {
	if roots == nil {
		return nil, fmt.Errorf("%w: the signature carries a certificate path but VerifyOptions.Roots is not set", ErrCertificatePath)
	}
	intermediates := x509.NewCertPool()
	for _, c := range certs[1:] {
		intermediates.AddCert(c)
	}
	if at.IsZero() {
		at = time.Now()
	}
	_, err := certs[0].Verify(x509.VerifyOptions{
		Roots:         roots,
		Intermediates: intermediates,
		CurrentTime:   at,
		KeyUsages:     []x509.ExtKeyUsage{x509.ExtKeyUsageAny},
	})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCertificatePath, err)
	}
	// The path must be in issuance order, as JSF requires, even where crypto/x509
	// would find another way through the pool.
	for i := 0; i+1 < len(certs); i++ {
		if err := certs[i].CheckSignatureFrom(certs[i+1]); err != nil {
			return nil, fmt.Errorf("%w: certificate %d is not issued by certificate %d: %w", ErrCertificatePath, i, i+1, err)
		}
	}
	return certs[0].PublicKey, nil
}
