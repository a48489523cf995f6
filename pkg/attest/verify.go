package attest

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/assay-dev/assay/pkg/jsf"
)

// Status is the verdict on one signature.
type Status string

// The verdicts: valid and made with a trusted key; valid, but nobody vouches for the key (an
// embedded key proves integrity, not who signed); invalid (the signed object changed, or
// the signature is malformed).
const (
	StatusValid     Status = "valid"
	StatusUntrusted Status = "untrusted"
	StatusInvalid   Status = "invalid"
)

// Check is the verdict on one signature of a document.
type Check struct {
	Object     string `json:"object" doc:"What the signature covers, for people: the document, an attestation, a claim or evidence by its bom-ref, a signatory by name"`
	Pointer    string `json:"pointer" doc:"RFC 6901 pointer of the signed object"`
	Signer     string `json:"signer" enum:"platform,signatory" doc:"Who made it"`
	Algorithm  string `json:"algorithm"`
	KeyID      string `json:"keyId,omitempty"`
	Thumbprint string `json:"thumbprint,omitempty" doc:"RFC 7638 thumbprint of the key it was checked with"`
	Status     Status `json:"status" enum:"valid,untrusted,invalid"`
	Reason     string `json:"reason,omitempty"`
}

// Options says which keys a verifier trusts, for which role, and what it knows of
// rescissions.
type Options struct {
	// PlatformKeys are the keys trusted for the platform's signatures (the per-object
	// signatures and the seal): the platform's JWKS. A key pinned for a signatory is not
	// trusted for the platform's role.
	PlatformKeys []jsf.JWK
	// SignatoryKeys are keys the verifier pins for signatories. A signatory's key is also
	// trusted when the valid, trusted seal covers the record in which the platform names
	// that key for the signatory.
	SignatoryKeys []jsf.JWK
	// Rescissions, when known, are the platform's signed list of rescinded attestations;
	// the key revocations it lists count as RevokedKeys.
	Rescissions *RescissionList
	// RevokedKeys are signatories' keys revoked at a known time (keys held by the
	// service): a signature whose signing record says it was made later is invalid, one
	// made before stays valid.
	RevokedKeys []KeyRevocation
	// Now is the day expiry is judged on; zero means now.
	Now time.Time
}

// Report is the verdict on a whole document.
type Report struct {
	AttestationID string      `json:"attestationId,omitempty"`
	SerialNumber  string      `json:"serialNumber,omitempty"`
	Sealed        bool        `json:"sealed"`
	Checks        []Check     `json:"checks"`
	Problems      []string    `json:"problems" doc:"Where the document departs from the signing profile"`
	Rescinded     *Rescission `json:"rescinded,omitempty"`
	ValidUntil    string      `json:"validUntil,omitempty"`
	Expired       bool        `json:"expired"`
	Files         []FileCheck `json:"files,omitempty"`
	OK            bool        `json:"ok" doc:"Every signature valid and trusted, the profile followed, not rescinded, every bundled file intact"`
}

// Verify checks every signature of an attestation document and the signing profile.
func Verify(data []byte, opts Options) Report {
	r := Report{Checks: []Check{}, Problems: []string{}}
	root, err := jsf.Parse(data)
	if err != nil {
		r.Problems = append(r.Problems, "The document is not valid JSON: "+err.Error())
		return r
	}
	doc, ok := root.(*jsf.Object)
	if !ok {
		r.Problems = append(r.Problems, "The document is not a JSON object.")
		return r
	}
	r.SerialNumber = str(doc, "serialNumber")
	r.AttestationID, r.ValidUntil = docProperty(doc, "assay:attestation:id"), docProperty(doc, "assay:attestation:valid-until")
	results, _ := jsf.VerifyTree(root, jsf.VerifyOptions{Property: SignatureProperty})
	platform, signatories := thumbprints(opts.PlatformKeys), thumbprints(opts.SignatoryKeys)
	records := signingRecords(doc)
	seal := -1
	for i, res := range results {
		c := Check{Pointer: res.Pointer, Algorithm: res.Algorithm, KeyID: res.KeyID, Thumbprint: res.Thumbprint, Signer: "platform"}
		c.Object = objectName(root, res, records)
		trusted := platform
		if res.Pointer == "/declarations" {
			c.Signer, trusted = "signatory", signatories
		}
		switch {
		case !res.Valid:
			c.Status, c.Reason = StatusInvalid, cmpErr(res.Err, "the signature does not verify")
		case trusted[res.Thumbprint]:
			c.Status = StatusValid
		default:
			c.Status, c.Reason = StatusUntrusted, "the key is not pinned"
		}
		if res.Pointer == "" {
			seal = i
		}
		r.Checks = append(r.Checks, c)
	}
	judgeRevokedKeys(doc, r.Checks, opts)
	r.Sealed = seal >= 0
	// The seal vouches for the signatories' keys it names.
	if r.Sealed && r.Checks[seal].Status == StatusValid {
		for i := range r.Checks {
			c := &r.Checks[i]
			if c.Signer == "signatory" && c.Status == StatusUntrusted && records[c.Thumbprint] != "" {
				c.Status, c.Reason = StatusValid, ""
			}
		}
	}
	r.Problems = append(r.Problems, profileProblems(doc, results, records)...)
	if opts.Rescissions != nil && r.SerialNumber != "" {
		r.Rescinded = opts.Rescissions.Find(r.SerialNumber)
	}
	now := opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	r.Expired = r.ValidUntil != "" && r.ValidUntil < now.UTC().Format(time.DateOnly)
	r.OK = r.Sealed && len(r.Problems) == 0 && r.Rescinded == nil
	for _, c := range r.Checks {
		r.OK = r.OK && c.Status == StatusValid
	}
	return r
}

// judgeRevokedKeys marks invalid each signatory's signature made with a revoked key after
// its revocation, by the time the signing record gives (a signature without one cannot be
// placed before the revocation, so it is invalid too).
func judgeRevokedKeys(doc *jsf.Object, checks []Check, opts Options) {
	revoked := map[string]time.Time{}
	all := opts.RevokedKeys
	if opts.Rescissions != nil {
		all = append(slices.Clone(all), opts.Rescissions.RevokedKeys...)
	}
	for _, k := range all {
		if at, seen := revoked[k.KeyID]; !seen || k.RevokedAt.Before(at) {
			revoked[k.KeyID] = k.RevokedAt
		}
	}
	if len(revoked) == 0 {
		return
	}
	signedAt := signingTimes(doc)
	for i := range checks {
		c := &checks[i]
		at, ok := revoked[c.Thumbprint]
		if c.Signer != "signatory" || !ok || c.Status == StatusInvalid {
			continue
		}
		when, known := signedAt[c.Thumbprint]
		switch {
		case !known:
			c.Status, c.Reason = StatusInvalid, "the key was revoked at "+at.UTC().Format(time.RFC3339)+
				" and no signing record says when this signature was made"
		case when.After(at):
			c.Status, c.Reason = StatusInvalid, "the key was revoked at "+at.UTC().Format(time.RFC3339)+
				", before this signature ("+when.UTC().Format(time.RFC3339)+")"
		}
	}
}

// signingTimes maps the key thumbprint of each digital signing record to the time it
// gives; a record with an unreadable time is left out.
func signingTimes(doc *jsf.Object) map[string]time.Time {
	out := map[string]time.Time{}
	refs, _ := get(doc, "externalReferences").([]any)
	for _, it := range refs {
		ref, _ := it.(*jsf.Object)
		if ref == nil || str(ref, "type") != "digital-signature" {
			continue
		}
		props := properties(ref)
		if at, err := time.Parse(time.RFC3339, props[PropertySignedAt]); err == nil && props[PropertyKeyThumbprint] != "" {
			out[props[PropertyKeyThumbprint]] = at
		}
	}
	return out
}

func thumbprints(keys []jsf.JWK) map[string]bool {
	out := make(map[string]bool, len(keys))
	for _, k := range keys {
		out[jsf.Thumbprint(k)] = true
	}
	return out
}

// profileProblems lists what the signing profile requires and the document lacks.
func profileProblems(doc *jsf.Object, results []jsf.Result, records map[string]string) []string {
	var out []string
	signed := map[string]bool{}
	signers := map[string]bool{}
	for _, res := range results {
		signed[res.Pointer] = true
		if res.Pointer == "/declarations" {
			signers[res.Thumbprint] = true
		}
	}
	if !signed[""] {
		out = append(out, "The document is not sealed: it has no platform signature.")
	}
	decl, _ := get(doc, "declarations").(*jsf.Object)
	if decl == nil {
		return append(out, "The document has no declarations.")
	}
	for _, name := range signedCollections {
		list, _ := get(decl, name).([]any)
		for i, it := range list {
			p := "/declarations/" + name + "/" + strconv.Itoa(i)
			if !signed[p] {
				obj, _ := it.(*jsf.Object)
				out = append(out, fmt.Sprintf("%s carries no platform signature.", describe(name, obj, i)))
			}
		}
	}
	for thumb, slot := range records {
		if !signers[thumb] {
			out = append(out, "The digital signature recorded for "+slot+" is missing from declarations.signature.")
		}
	}
	return append(out, slotProblems(doc, decl)...)
}

// slotProblems checks that every signatory slot of the affirmation was signed exactly once
// and that every signing record names a slot of the affirmation.
func slotProblems(doc, decl *jsf.Object) []string {
	var out []string
	aff, _ := get(decl, "affirmation").(*jsf.Object)
	entries, _ := get(aff, "signatories").([]any)
	slots := map[string]int{}
	var order []string
	for _, e := range entries {
		ref, _ := get(asObject(e), "externalReference").(*jsf.Object)
		if urn := str(ref, "url"); strings.HasPrefix(urn, "urn:assay:signatory:") {
			slots[urn] = 0
			order = append(order, urn)
		}
	}
	refs, _ := get(doc, "externalReferences").([]any)
	for _, it := range refs {
		ref := asObject(it)
		if t := str(ref, "type"); t != "digital-signature" && t != "electronic-signature" {
			continue
		}
		slot := properties(ref)[PropertySlot]
		if _, ok := slots[slot]; !ok {
			out = append(out, "A signing record names "+strconv.Quote(slot)+", which is no signatory slot of the affirmation.")
			continue
		}
		slots[slot]++
	}
	for _, urn := range order {
		switch slots[urn] {
		case 0:
			out = append(out, "The signatory slot "+urn+" is not signed.")
		case 1:
		default:
			out = append(out, "The signatory slot "+urn+" is signed more than once.")
		}
	}
	return out
}

// signingRecords maps the key thumbprint of each digital signing record to its slot.
func signingRecords(doc *jsf.Object) map[string]string {
	out := map[string]string{}
	refs, _ := get(doc, "externalReferences").([]any)
	for _, it := range refs {
		ref, _ := it.(*jsf.Object)
		if ref == nil || str(ref, "type") != "digital-signature" {
			continue
		}
		props := properties(ref)
		if t := props[PropertyKeyThumbprint]; t != "" {
			out[t] = props[PropertySlot] + " (" + props[PropertySignerName] + ")"
		}
	}
	return out
}

// objectName says for people what a signature covers.
func objectName(root any, res jsf.Result, records map[string]string) string {
	switch res.Pointer {
	case "":
		return "the document (platform seal)"
	case "/declarations":
		if who := records[res.Thumbprint]; who != "" {
			return "signatory " + who
		}
		return "signatory " + strconv.Itoa(res.Index+1) + " of declarations.signature"
	}
	parts := strings.Split(strings.TrimPrefix(res.Pointer, "/declarations/"), "/")
	if len(parts) == 2 {
		obj, _ := jsf.LookupObject(root, res.Pointer)
		i, _ := strconv.Atoi(parts[1])
		return describe(parts[0], obj, i)
	}
	return "the object at " + res.Pointer
}

// describe names declarations.<collection>[i] by its bom-ref where it has one.
func describe(collection string, obj *jsf.Object, i int) string {
	kind := map[string]string{"attestations": "attestation", "claims": "claim", "evidence": "evidence"}[collection]
	if obj != nil {
		if ref := str(obj, "bom-ref"); ref != "" {
			return kind + " " + ref
		}
	}
	return kind + " " + strconv.Itoa(i+1)
}

func get(o *jsf.Object, name string) any {
	if o == nil {
		return nil
	}
	v, _ := o.Get(name)
	return v
}

func str(o *jsf.Object, name string) string {
	s, _ := get(o, name).(string)
	return s
}

// properties reads a CycloneDX properties array as a map.
func properties(o *jsf.Object) map[string]string {
	out := map[string]string{}
	list, _ := get(o, "properties").([]any)
	for _, it := range list {
		p, _ := it.(*jsf.Object)
		out[str(p, "name")] = str(p, "value")
	}
	return out
}

// docProperty is the value of a property of the document's top-level properties.
func docProperty(doc *jsf.Object, name string) string { return properties(doc)[name] }
