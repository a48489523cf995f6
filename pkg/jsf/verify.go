package jsf

import (
	"crypto"
	"crypto/x509"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// ErrNoKey is returned when a signature names its key only by keyId (or not at all) and
// VerifyOptions.ResolveKeyFunc does not supply it.
var ErrNoKey = errors.New("jsf: no key to verify with")

// VerifyOptions configures verification. The zero value verifies signatures that embed
// their public key, under the property "signature".
type VerifyOptions struct {
	// Property is the name of the signature property; "" means DefaultProperty.
	Property string
	// ResolveKeyFunc supplies the key of a signature that carries neither "publicKey"
	// nor "certificatePath": keyID is its "keyId", or "" when the key is implicit (JSF
	// lets the parties agree on it out of band).
	ResolveKeyFunc func(keyID string) (crypto.PublicKey, error)
	// Roots are the trust anchors for signatures carrying a "certificatePath"; without
	// them such signatures are invalid.
	Roots *x509.CertPool
	// CurrentTime is when certificates must be valid; zero means now. Pin it to the
	// signing time to check an archived document.
	CurrentTime time.Time
}

func (o VerifyOptions) property() string {
	if o.Property == "" {
		return DefaultProperty
	}
	return o.Property
}

// Result is the verdict on one signer.
type Result struct {
	// Pointer is the RFC 6901 JSON pointer of the signed object: the one holding the
	// signature property ("" is the document itself).
	Pointer string
	// Property is the name of the signature property.
	Property string
	// Form says whether the signer stands alone, among "signers" or in a "chain".
	Form Form
	// Index is the signer's position in "signers" or "chain"; -1 for FormSingle and
	// for a signature property too malformed to have signers.
	Index int
	// Algorithm and KeyID are as the signature states them (KeyID may be "").
	Algorithm string
	KeyID     string
	// PublicKey is the key the signature was checked with and Thumbprint its RFC 7638
	// thumbprint; nil and "" when no key could be determined. Deciding whether the key
	// is trusted is the caller's job.
	PublicKey  *JWK
	Thumbprint string
	// Certificates is the decoded "certificatePath", signer first, when there was one.
	Certificates []*x509.Certificate
	// Valid is true when the signature verifies; otherwise Err says why.
	Valid bool
	Err   error
}

// Verify parses a document and verifies every JSF signature in it: every object, at any
// depth, whose signature property holds an object with "algorithm", "signers" or
// "chain". Each signature covers its own enclosing object, nested signatures included.
//
// It returns one Result per signer. The error is non-nil when the document does not
// parse, holds no signature, or any signer is invalid (the Results then say which), so
// that a caller checking only the error never accepts a partly broken document.
func Verify(doc []byte, opts VerifyOptions) ([]Result, error) {
	root, err := Parse(doc)
	if err != nil {
		return nil, err
	}
	return VerifyTree(root, opts)
}

// VerifyTree is Verify on a parsed document.
func VerifyTree(root any, opts VerifyOptions) ([]Result, error) {
	var results []Result
	if err := walk(root, "", 0, opts, &results); err != nil {
		return results, err
	}
	return results, resultsError(results)
}

// VerifyObject verifies only the signature held directly by obj (not those nested
// deeper); Result.Pointer is "". The error follows the rules of Verify.
func VerifyObject(obj *Object, opts VerifyOptions) ([]Result, error) {
	var results []Result
	if v, ok := obj.Get(opts.property()); ok && looksLikeSignature(v) {
		results = verifyProperty(obj, "", opts)
	}
	return results, resultsError(results)
}

func resultsError(results []Result) error {
	if len(results) == 0 {
		return ErrNoSignature
	}
	var errs []error
	for _, r := range results {
		if r.Valid {
			continue
		}
		where := fmt.Sprintf("signature %q at %q", r.Property, r.Pointer)
		if r.Index >= 0 {
			where += fmt.Sprintf(" (%s[%d])", r.Form.arrayName(), r.Index)
		}
		errs = append(errs, fmt.Errorf("%s: %w", where, r.Err))
	}
	return errors.Join(errs...)
}

// walk visits every object; a signature property itself is not searched for signatures.
// The depth bound matters only for trees built by hand (Parse enforces it already), where
// it also stops a cycle.
func walk(v any, pointer string, depth int, opts VerifyOptions, results *[]Result) error {
	if depth > MaxDepth {
		return fmt.Errorf("jsf: %w at %q", ErrTooDeep, pointer)
	}
	switch v := v.(type) {
	case *Object:
		prop := opts.property()
		sig, ok := v.Get(prop)
		signed := ok && looksLikeSignature(sig)
		if signed {
			*results = append(*results, verifyProperty(v, pointer, opts)...)
		}
		for name, child := range v.All() {
			if signed && name == prop {
				continue
			}
			if err := walk(child, appendPointer(pointer, name), depth+1, opts, results); err != nil {
				return err
			}
		}
	case []any:
		for i, child := range v {
			if err := walk(child, pointer+"/"+strconv.Itoa(i), depth+1, opts, results); err != nil {
				return err
			}
		}
	}
	return nil
}

func verifyProperty(obj *Object, pointer string, opts VerifyOptions) []Result {
	prop := opts.property()
	v, _ := obj.Get(prop)
	env, err := readEnvelope(v.(*Object))
	if err != nil {
		return []Result{{Pointer: pointer, Property: prop, Form: env.form, Index: -1, Err: err}}
	}
	results := make([]Result, env.count())
	for i := range results {
		results[i] = verifySigner(obj, env, i, opts)
		results[i].Pointer = pointer
	}
	return results
}

func verifySigner(obj *Object, env envelope, i int, opts VerifyOptions) Result {
	r := Result{Property: opts.property(), Form: env.form, Index: i}
	if env.form == FormSingle {
		r.Index = -1
	}
	signer := env.signerAt(i)
	f, err := readSigner(signer, env)
	r.Algorithm, r.KeyID = f.algorithm, f.keyID
	if err != nil {
		r.Err = err
		return r
	}
	alg, err := lookupAlgorithm(f.algorithm)
	if err != nil {
		r.Err = err
		return r
	}
	pub, err := r.resolveKey(f, opts)
	if err != nil {
		r.Err = err
		return r
	}
	if err := alg.checkKey(pub); err != nil {
		r.Err = err
		return r
	}
	sig, err := b64.DecodeString(f.value)
	if err != nil {
		r.Err = fmt.Errorf(`%w: "value" is not base64url without padding: %w`, ErrMalformed, err)
		return r
	}
	data, err := signingInput(obj, r.Property, env, i, withoutValue(signer))
	if err != nil {
		r.Err = err
		return r
	}
	if err := alg.verify(pub, data, sig); err != nil {
		r.Err = err
		return r
	}
	r.Valid = true
	return r
}

// resolveKey finds the key a signer names and records it (and its certificates) in r.
// An embedded "publicKey" wins over "keyId", which is then only a label.
func (r *Result) resolveKey(f signerFields, opts VerifyOptions) (crypto.PublicKey, error) {
	var pub crypto.PublicKey
	var err error
	switch {
	case f.publicKey != nil:
		var jwk JWK
		if jwk, pub, err = jwkFromObject(f.publicKey); err != nil {
			return nil, err
		}
		r.PublicKey, r.Thumbprint = &jwk, Thumbprint(jwk)
		return pub, nil
	case f.certPath != nil:
		if r.Certificates, err = decodeCertificatePath(f.certPath); err != nil {
			return nil, err
		}
		// Report the signer's key even if the path fails, to say whose it was.
		pub = r.Certificates[0].PublicKey
		r.describeKey(pub)
		return verifyCertificatePath(r.Certificates, opts.Roots, opts.CurrentTime)
	case opts.ResolveKeyFunc == nil:
		if f.keyID == "" {
			return nil, fmt.Errorf("%w: the signature carries no public key or certificate and names no key", ErrNoKey)
		}
		return nil, fmt.Errorf("%w: the signature names key %q but carries no public key or certificate, and this verifier knows no keys by name", ErrNoKey, f.keyID)
	default:
		if pub, err = opts.ResolveKeyFunc(f.keyID); err != nil {
			return nil, fmt.Errorf("%w: keyId %q: %w", ErrNoKey, f.keyID, err)
		}
		if pub == nil {
			return nil, fmt.Errorf("%w: keyId %q: the resolver returned no key", ErrNoKey, f.keyID)
		}
		r.describeKey(pub)
		return pub, nil
	}
}

func (r *Result) describeKey(pub crypto.PublicKey) {
	if jwk, err := NewJWK(pub); err == nil {
		r.PublicKey, r.Thumbprint = &jwk, Thumbprint(jwk)
	}
}
