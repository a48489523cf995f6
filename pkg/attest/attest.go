// Package attest is the signing profile of attestation documents (docs/attestations.md):
// what is signed, by whom, in which order, and how a receiver checks it. Every signature
// is a plain JSF signature (pkg/jsf) over the JSON object that encloses it, so any JSF
// verifier checks the documents this package writes; nothing here needs the service.
//
// The order, so that no signature covers data added after it:
//
//  1. Freeze: the statement (a CycloneDX document with declarations, written by
//     pkg/cyclonedx) is fixed; the platform signs each attestation, claim and evidence
//     object, so that a verifier can name the object that changed. The affirmation's
//     signatory entries are part of the statement, one per slot.
//  2. Signing, in any order: a digital signatory adds a signer to the multiple signature
//     declarations.signature (JSF "signers": each signer signs declarations as if it were
//     the only one, so another signer leaves it valid); every signatory, digital or
//     electronic, adds a record to the document's top-level externalReferences (type
//     digital-signature or electronic-signature) naming the slot, who signed, when and —
//     for a digital signature — the key's thumbprint. Those records lie outside
//     declarations, so no digital signature covers them.
//  3. Seal: the platform signs the whole document (the top-level "signature"), covering
//     everything above, the signatories' values and records included.
package attest

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/assay-dev/assay/pkg/jsf"
)

// SignatureProperty is the name of every signature property of the profile.
const SignatureProperty = "signature"

// Property names of the signing records in externalReferences.
const (
	PropertySlot          = "assay:signatory:slot"
	PropertySignerName    = "assay:signatory:name"
	PropertySignerRole    = "assay:signatory:role"
	PropertySignerOrg     = "assay:signatory:organization"
	PropertySignedAt      = "assay:signatory:signed-at"
	PropertyKeyThumbprint = "assay:signatory:key-thumbprint"
)

// ErrProfile marks a document that does not follow the profile (not a frozen statement,
// a slot signed twice, a seal already present).
var ErrProfile = errors.New("attest: document does not follow the signing profile")

// signedCollections are the declarations arrays whose objects the platform signs at freeze.
var signedCollections = []string{"attestations", "claims", "evidence"}

// Freeze signs each attestation, claim and evidence object of an unsigned statement with
// the platform's signer and returns the frozen statement.
func Freeze(statement []byte, platform *jsf.Signer) ([]byte, error) {
	doc, decl, err := parse(statement)
	if err != nil {
		return nil, err
	}
	if doc.Has(SignatureProperty) || decl.Has(SignatureProperty) {
		return nil, fmt.Errorf("%w: the statement is signed already", ErrProfile)
	}
	for _, name := range signedCollections {
		items, _ := decl.Get(name)
		list, _ := items.([]any)
		for i, it := range list {
			obj, ok := it.(*jsf.Object)
			if !ok {
				return nil, fmt.Errorf("%w: declarations.%s[%d] is not an object", ErrProfile, name, i)
			}
			if err := jsf.SignObject(obj, SignatureProperty, platform); err != nil {
				return nil, err
			}
		}
	}
	return encode(doc)
}

// Signatory is who signed a slot, as the signing record names them.
type Signatory struct {
	SlotURN      string // cyclonedx.SignatoryURN of the slot
	Name         string
	Role         string
	Organization string
	SignedAt     time.Time
}

// SignStatement is what a digital signatory's own tool does: it returns the signer object
// {algorithm, publicKey, value} that signs the declarations of a frozen statement as their
// only signer (signers already present are left out of what it signs, as JSF's multiple
// signatures require), for the service's AddDigitalSignature. A sealed document, or a
// statement the platform has not frozen, is refused.
func SignStatement(frozen []byte, s *jsf.Signer) (*jsf.Object, error) {
	doc, err := jsf.ParseObject(frozen)
	if err != nil {
		return nil, fmt.Errorf("not a JSON document: %w", err)
	}
	if doc.Has(SignatureProperty) {
		return nil, errors.New("the document is sealed already: sign the frozen statement downloaded from the service")
	}
	decl, ok := get(doc, "declarations").(*jsf.Object)
	if !ok {
		return nil, errors.New("it has no declarations object: it is not an attestation statement")
	}
	for _, name := range signedCollections {
		list, _ := get(decl, name).([]any)
		for i, it := range list {
			if obj, ok := it.(*jsf.Object); !ok || !obj.Has(SignatureProperty) {
				return nil, fmt.Errorf("it is not frozen: declarations.%s[%d] carries no platform signature; "+
					"download the frozen statement from the service", name, i)
			}
		}
	}
	mine := decl.Clone()
	mine.Delete(SignatureProperty)
	if err := jsf.AddSignerObject(mine, SignatureProperty, s); err != nil {
		return nil, err
	}
	list, _ := get(asObject(get(mine, SignatureProperty)), "signers").([]any)
	return asObject(list[0]), nil
}

// AddDigitalSignature checks a signer object made over the frozen statement (a JSF signer
// {algorithm, publicKey, value} of declarations as its only signer) and, when it verifies,
// adds it to declarations.signature and the signing record of who to the document. It
// returns the new document and the signer's public key. A signer that does not verify is
// an error wrapping jsf's reason; so is one without an embedded public key.
func AddDigitalSignature(frozen []byte, signer *jsf.Object, who Signatory) ([]byte, jsf.JWK, error) {
	doc, decl, err := parse(frozen)
	if err != nil {
		return nil, jsf.JWK{}, err
	}
	if doc.Has(SignatureProperty) {
		return nil, jsf.JWK{}, fmt.Errorf("%w: the document is sealed", ErrProfile)
	}
	if !signer.Has("publicKey") {
		return nil, jsf.JWK{}, errors.New("the signer must carry its publicKey (a JWK)")
	}
	for _, refused := range []string{"excludes", "certificatePath", "keyId"} {
		if signer.Has(refused) {
			return nil, jsf.JWK{}, fmt.Errorf("the signer may not carry %q", refused)
		}
	}
	var signers []any
	if v, ok := decl.Get(SignatureProperty); ok {
		w, ok := v.(*jsf.Object)
		if !ok {
			return nil, jsf.JWK{}, fmt.Errorf("%w: declarations.signature is not an object", ErrProfile)
		}
		list, _ := w.Get("signers")
		signers, _ = list.([]any)
	}
	candidate := decl.Clone()
	candidate.Set(SignatureProperty, jsf.NewObject(jsf.Member{Name: "signers", Value: append(slices.Clone(signers), signer)}))
	results, _ := jsf.VerifyObject(candidate, jsf.VerifyOptions{Property: SignatureProperty})
	if len(results) != len(signers)+1 {
		return nil, jsf.JWK{}, fmt.Errorf("%w: declarations.signature is malformed", ErrProfile)
	}
	mine := results[len(results)-1]
	if !mine.Valid || mine.PublicKey == nil {
		return nil, jsf.JWK{}, fmt.Errorf("%v", cmpErr(mine.Err, "the signature does not verify"))
	}
	for _, r := range results[:len(results)-1] {
		if r.Thumbprint == mine.Thumbprint {
			return nil, jsf.JWK{}, fmt.Errorf("%w: this key has signed already", ErrProfile)
		}
	}
	sig, _ := candidate.Get(SignatureProperty)
	decl.Set(SignatureProperty, sig)
	addRecord(doc, "digital-signature", who, who.SlotURN,
		"Digital signature of "+who.Name+" for "+who.SlotURN+"; the signer is in declarations.signature.", nil,
		jsf.Member{Name: PropertyKeyThumbprint, Value: mine.Thumbprint})
	out, err := encode(doc)
	return out, *mine.PublicKey, err
}

// AddElectronicSignature adds the signing record of an electronic signature: who, when,
// and, when an image (PNG) was given, the image as a data URI bound by its SHA-256.
func AddElectronicSignature(frozen []byte, who Signatory, png []byte) ([]byte, error) {
	doc, _, err := parse(frozen)
	if err != nil {
		return nil, err
	}
	if doc.Has(SignatureProperty) {
		return nil, fmt.Errorf("%w: the document is sealed", ErrProfile)
	}
	url, comment := who.SlotURN, "Electronic signature of "+who.Name+" for "+who.SlotURN+"."
	var hashes []any
	if len(png) > 0 {
		url = "data:image/png;base64," + base64.StdEncoding.EncodeToString(png)
		sum := sha256.Sum256(png)
		hashes = []any{jsf.NewObject(jsf.Member{Name: "alg", Value: "SHA-256"}, jsf.Member{Name: "content", Value: hex.EncodeToString(sum[:])})}
	}
	addRecord(doc, "electronic-signature", who, url, comment, hashes)
	return encode(doc)
}

// addRecord appends a signing record to the document's externalReferences.
func addRecord(doc *jsf.Object, typ string, who Signatory, url, comment string, hashes []any, extra ...jsf.Member) {
	props := []any{prop(PropertySlot, who.SlotURN), prop(PropertySignerName, who.Name)}
	if who.Role != "" {
		props = append(props, prop(PropertySignerRole, who.Role))
	}
	if who.Organization != "" {
		props = append(props, prop(PropertySignerOrg, who.Organization))
	}
	props = append(props, prop(PropertySignedAt, who.SignedAt.UTC().Format(time.RFC3339)))
	for _, m := range extra {
		props = append(props, prop(m.Name, m.Value.(string)))
	}
	ref := jsf.NewObject(jsf.Member{Name: "url", Value: url}, jsf.Member{Name: "comment", Value: comment},
		jsf.Member{Name: "type", Value: typ})
	if len(hashes) > 0 {
		ref.Set("hashes", hashes)
	}
	ref.Set("properties", props)
	list, _ := doc.Get("externalReferences")
	refs, _ := list.([]any)
	doc.Set("externalReferences", append(refs, ref))
}

func prop(name, value string) *jsf.Object {
	return jsf.NewObject(jsf.Member{Name: "name", Value: name}, jsf.Member{Name: "value", Value: value})
}

// Seal adds the platform's signature over the whole document.
func Seal(signed []byte, platform *jsf.Signer) ([]byte, error) {
	doc, _, err := parse(signed)
	if err != nil {
		return nil, err
	}
	if err := jsf.SignObject(doc, SignatureProperty, platform); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrProfile, err)
	}
	return encode(doc)
}

// parse reads a document and its declarations object.
func parse(data []byte) (*jsf.Object, *jsf.Object, error) {
	doc, err := jsf.ParseObject(data)
	if err != nil {
		return nil, nil, err
	}
	v, _ := doc.Get("declarations")
	decl, ok := v.(*jsf.Object)
	if !ok {
		return nil, nil, fmt.Errorf("%w: no declarations object", ErrProfile)
	}
	return doc, decl, nil
}

// encode writes a document as the service stores and serves it: indented by two spaces.
func encode(doc *jsf.Object) ([]byte, error) {
	out, err := jsf.MarshalIndent(doc, "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

func cmpErr(err error, fallback string) string {
	if err != nil {
		return err.Error()
	}
	return fallback
}
