package attest

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/jsf"
)

// JWKSKey is one platform key in the public key set: the JWK with its thumbprint as kid,
// and when it was in use.
type JWKSKey struct {
	jsf.JWK
	Kid     string     `json:"kid" doc:"RFC 7638 thumbprint (SHA-256, base64url)"`
	Alg     string     `json:"alg" doc:"The JSF algorithm the key signs with"`
	Use     string     `json:"use" enum:"sig"`
	Status  string     `json:"status" enum:"active,retired"`
	Created time.Time  `json:"created"`
	Retired *time.Time `json:"retired,omitempty"`
}

// JWKS is the platform's public key set (RFC 7517): the active key and every retired one,
// so documents sealed before a rotation still verify.
type JWKS struct {
	Keys []JWKSKey `json:"keys"`
}

// ParseJWKS reads a key set and returns its keys. A key whose kid is not its RFC 7638
// thumbprint is refused: the kid is how documents name the key.
func ParseJWKS(data []byte) ([]jsf.JWK, error) {
	var set JWKS
	if err := json.Unmarshal(data, &set); err != nil {
		return nil, fmt.Errorf("attest: the key set is not valid JSON: %w", err)
	}
	if len(set.Keys) == 0 {
		return nil, errors.New("attest: the key set holds no key")
	}
	out := make([]jsf.JWK, 0, len(set.Keys))
	for i, k := range set.Keys {
		if _, err := k.PublicKey(); err != nil {
			return nil, fmt.Errorf("attest: key %d: %w", i, err)
		}
		if k.Kid != "" && k.Kid != jsf.Thumbprint(k.JWK) {
			return nil, fmt.Errorf("attest: key %d: kid %q is not its thumbprint", i, k.Kid)
		}
		out = append(out, k.JWK)
	}
	return out, nil
}

// ParseKey reads one public key: a JWK, or a JWKS of which every key is taken.
func ParseKey(data []byte) ([]jsf.JWK, error) {
	var probe struct {
		Keys json.RawMessage `json:"keys"`
	}
	if json.Unmarshal(data, &probe) == nil && probe.Keys != nil {
		return ParseJWKS(data)
	}
	var k jsf.JWK
	if err := json.Unmarshal(data, &k); err != nil {
		return nil, fmt.Errorf("attest: the key is not a JWK: %w", err)
	}
	if _, err := k.PublicKey(); err != nil {
		return nil, err
	}
	return []jsf.JWK{k}, nil
}

// Rescission withdraws one sealed attestation. The sealed document cannot change, so the
// withdrawal is published beside it, in the platform-signed list.
type Rescission = assess.Rescission

// KeyRevocation is the revocation of a signatory's key held by the service.
type KeyRevocation = assess.KeyRevocation

// RescissionList is the platform's list of rescinded attestations, and of the revoked
// keys it held for signatories (absent while there are none).
type RescissionList struct {
	Issuer      string          `json:"issuer"`
	Updated     time.Time       `json:"updated"`
	Rescissions []Rescission    `json:"rescissions"`
	RevokedKeys []KeyRevocation `json:"revokedKeys,omitempty"`
}

// Find returns the rescission of the document with serial number serial, or nil.
func (l *RescissionList) Find(serial string) *Rescission {
	i := slices.IndexFunc(l.Rescissions, func(r Rescission) bool { return r.SerialNumber == serial })
	if i < 0 {
		return nil
	}
	return &l.Rescissions[i]
}

// SignRescissions writes the list, signed by the platform.
func SignRescissions(l RescissionList, platform *jsf.Signer) ([]byte, error) {
	if l.Rescissions == nil {
		l.Rescissions = []Rescission{}
	}
	plain, err := json.Marshal(l)
	if err != nil {
		return nil, err
	}
	obj, err := jsf.ParseObject(plain)
	if err != nil {
		return nil, err
	}
	if err := jsf.SignObject(obj, SignatureProperty, platform); err != nil {
		return nil, err
	}
	return encode(obj)
}

// ReadRescissions verifies a signed list with the platform's keys and returns it; a list
// that does not verify, or is not signed by one of platformKeys, is an error.
func ReadRescissions(data []byte, platformKeys []jsf.JWK) (*RescissionList, error) {
	obj, err := jsf.ParseObject(data)
	if err != nil {
		return nil, fmt.Errorf("attest: the rescission list: %w", err)
	}
	results, err := jsf.VerifyObject(obj, jsf.VerifyOptions{Property: SignatureProperty})
	if err != nil {
		return nil, fmt.Errorf("attest: the rescission list's signature: %w", err)
	}
	if len(results) != 1 || results[0].Pointer != "" ||
		!slices.ContainsFunc(platformKeys, func(k jsf.JWK) bool { return jsf.Thumbprint(k) == results[0].Thumbprint }) {
		return nil, errors.New("attest: the rescission list is signed with a key that is not trusted")
	}
	var l RescissionList
	if err := json.Unmarshal(data, &l); err != nil {
		return nil, fmt.Errorf("attest: the rescission list: %w", err)
	}
	return &l, nil
}
