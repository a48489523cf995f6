package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/attest"
	"github.com/assay-dev/assay/pkg/cyclonedx"
	"github.com/assay-dev/assay/pkg/jsf"
)

// Attestation documents from elsewhere (docs/attestations.md, "Importing attestations"): an
// upload, or a download through the DocumentFetcher (the outbound guard, as for webhooks).
// The document is checked against the official schema and read (package cyclonedx), its
// signatures are judged with the verifier receivers use (package attest) against this
// installation's platform keys and the keys the importer vouches for, and the store writes
// it in one transaction — or, on a dry run, reports what it would write.

// AttestationImportStore is what the imports need of the store (pkg/postgres/services
// AttestationImportService).
type AttestationImportStore interface {
	ImportAttestation(ctx context.Context, n assess.NewAttestationImport, actor assess.Actor) (assess.AttestationImport, error)
}

// KeySetSource is the platform's public key set (pkg/postgres/work PlatformKeyService).
type KeySetSource interface {
	PublicKeySet(ctx context.Context) ([]byte, error)
}

// AttestationImportRequest is one document to import: its bytes (an upload) or its URL.
type AttestationImportRequest struct {
	Document []byte
	Filename string
	URL      string
	// TrustedKeys is a JWKS the importer vouches for (the issuing installation's
	// /.well-known/assay/jwks.json, say): signatures made with its keys count as trusted.
	TrustedKeys []byte
	DryRun      bool
}

// AttestationImports imports attestation documents.
type AttestationImports struct {
	store    AttestationImportStore
	keys     KeySetSource
	fetcher  assess.DocumentFetcher // nil: imports by URL answer 503
	maxBytes int64
}

// NewAttestationImports returns the imports on store, judging signatures with keys and
// downloading through fetcher, documents capped at maxBytes (10 MiB when not positive).
func NewAttestationImports(store AttestationImportStore, keys KeySetSource, fetcher assess.DocumentFetcher, maxBytes int64) *AttestationImports {
	if maxBytes <= 0 {
		maxBytes = 10 << 20
	}
	return &AttestationImports{store: store, keys: keys, fetcher: fetcher, maxBytes: maxBytes}
}

// Import reads, judges and imports one document (or reports what importing it would do).
func (s *AttestationImports) Import(ctx context.Context, req AttestationImportRequest, actor assess.Actor) (assess.AttestationImport, error) {
	trusted, err := trustedKeys(req.TrustedKeys)
	if err != nil {
		return assess.AttestationImport{}, err
	}
	source, data := "upload", req.Document
	if req.URL != "" {
		if s.fetcher == nil {
			return assess.AttestationImport{}, &assess.Error{Code: assess.ECodeUnavailable, Message: "Downloading documents is not configured."}
		}
		if data, err = s.fetcher.FetchDocument(ctx, "url", req.URL, s.maxBytes); err != nil {
			return assess.AttestationImport{}, err
		}
		source = req.URL
		if u, perr := url.Parse(req.URL); perr == nil && req.Filename == "" {
			req.Filename = pathBase(u.Path)
		}
	}
	if err := readableOneWay(data); err != nil {
		return assess.AttestationImport{}, err
	}
	plan, err := cyclonedx.ParseAttestation(data)
	if err != nil {
		return assess.AttestationImport{}, err
	}
	own, err := s.keys.PublicKeySet(ctx)
	if err != nil {
		return assess.AttestationImport{}, err
	}
	if keys, err := attest.ParseJWKS(own); err == nil { // an error: no key yet here
		trusted = append(trusted, keys...)
	}
	sigs := JudgeSignatures(data, plan.Placeholders, trusted)
	return s.store.ImportAttestation(ctx, assess.NewAttestationImport{Plan: plan, Document: data, Source: source,
		Filename: clipName(req.Filename), Signatures: sigs, DryRun: req.DryRun}, actor)
}

// readableOneWay refuses, with 422 and the byte where it was found, a document that the
// verifier of its signatures (jsf.Parse) does not read: a member name twice in one object
// (encoding/json, which reads the document for the import, keeps the last; other readers keep
// the first), invalid UTF-8 or a lone surrogate escape (replaced by some readers, refused by
// others) and a number beyond a double are ambiguous_json; any other departure from JSON (a
// byte order mark, data after the document) is invalid_json. Imported, such a document would
// be kept as one reading while its signatures went unjudged: shown as absent though it
// carries some.
func readableOneWay(data []byte) error {
	_, err := jsf.Parse(data)
	if err == nil {
		return nil
	}
	var syn *jsf.SyntaxError
	switch {
	case len(bytes.TrimSpace(data)) == 0:
		return importProblem("invalid_json", "The file is empty.")
	case bytes.HasPrefix(data, []byte("\xef\xbb\xbf")):
		return importProblem("invalid_json", "The file begins with a byte order mark (EF BB BF), which JSON does not allow: save it as UTF-8 without one.")
	case errors.Is(err, jsf.ErrTooDeep):
		return importProblem("invalid_json", fmt.Sprintf("The document nests arrays and objects more than %d levels deep.", jsf.MaxDepth))
	case !errors.As(err, &syn):
		return importProblem("invalid_json", "The file is not a JSON document: "+err.Error()+".")
	}
	reason := syn.Err.Error()
	if syn.Detail != "" {
		reason += " (" + syn.Detail + ")"
	}
	reason += " at byte " + strconv.Itoa(syn.Offset)
	for _, ambiguous := range []error{jsf.ErrDuplicateKey, jsf.ErrInvalidUTF8, jsf.ErrLoneSurrogate, jsf.ErrNumberRange} {
		if errors.Is(err, ambiguous) {
			return importProblem("ambiguous_json", "The document can be read in more than one way, so its signatures cannot be judged: "+
				reason+". Ask its issuer for strict JSON (RFC 8259 and the JSON Canonicalization Scheme, RFC 8785).")
		}
	}
	return importProblem("invalid_json", "The file is not a JSON document: "+reason+".")
}

// importProblem is a 422 about the whole document (its JSON pointer "/"), as
// cyclonedx.ParseAttestation answers.
func importProblem(code, msg string) error {
	return &assess.Error{Code: assess.ECodeBusinessRule, Message: msg, Details: []assess.Detail{{Field: "/", Code: code, Message: msg}}}
}

// trustedKeys reads the JWKS an importer vouches for; not one is 422 on field jwks.
func trustedKeys(data []byte) ([]jsf.JWK, error) {
	if len(data) == 0 {
		return nil, nil
	}
	keys, err := attest.ParseJWKS(data)
	if err != nil {
		return nil, &assess.Error{Code: assess.ECodeValidation, Message: "The trusted keys are not a JWK set.",
			Details: []assess.Detail{{Field: "jwks", Code: "invalid", Message: "Give a JWKS document ({\"keys\": [...]}) of public keys, such as the issuing installation's /.well-known/assay/jwks.json."}}}
	}
	return keys, nil
}

// JudgeSignatures is the verdict on every signature of a document: each checked against the
// trusted keys (for the platform's role and the signatories' alike — the importer vouches for
// them), placeholders (pointers of the signed objects) counted as absent. The worst verdict is
// the document's: invalid, untrusted, valid; absent without any real signature.
func JudgeSignatures(data []byte, placeholders []string, trusted []jsf.JWK) assess.ImportSignatures {
	report := attest.Verify(data, attest.Options{PlatformKeys: trusted, SignatoryKeys: trusted})
	out := assess.ImportSignatures{State: assess.SignaturesAbsent, Checks: []assess.SignatureCheck{}, TrustedKeys: len(trusted)}
	worst := 0
	rank := map[string]int{assess.SignaturesValid: 1, assess.SignaturesUntrusted: 2, assess.SignaturesInvalid: 3}
	for _, c := range report.Checks {
		check := assess.SignatureCheck{Object: c.Object, Pointer: c.Pointer, Status: string(c.Status), Thumbprint: c.Thumbprint, Reason: c.Reason}
		if slices.Contains(placeholders, c.Pointer) {
			check.Status, check.Reason = assess.SignaturesAbsent, "a placeholder, not a signature"
			out.Checks = append(out.Checks, check)
			continue
		}
		if c.Pointer == "" {
			out.Sealed = true
		}
		if rank[check.Status] > worst {
			worst, out.State = rank[check.Status], check.Status
		}
		out.Checks = append(out.Checks, check)
	}
	return out
}

func pathBase(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return p[i+1:]
		}
	}
	return p
}

// clipName makes a file name storable: valid UTF-8, no control characters, at most 255 bytes.
func clipName(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, ""))
	for len(s) > 255 {
		_, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
	}
	return s
}
