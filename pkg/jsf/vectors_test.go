package jsf

import (
	"crypto"
	"crypto/x509"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestEnvelopes verifies every envelope of the shared fixture set: the supported
// algorithms verify (with the key in keys/) and break when payload or value change; HMAC
// and Ed448 are refused.
func TestEnvelopes(t *testing.T) {
	t.Parallel()
	keyFile := map[string]string{
		"ES256": "p256-public.pem", "ES384": "p384-public.pem", "ES512": "p521-public.pem",
		"RS256": "rsa2048-public.pem", "RS384": "rsa2048-public.pem", "RS512": "rsa2048-public.pem",
		"PS256": "rsa2048-public.pem", "PS384": "rsa2048-public.pem", "PS512": "rsa2048-public.pem",
		"Ed25519": "ed25519-public.pem",
	}
	files, err := filepath.Glob(sharedDir(t, "envelopes", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no envelopes: %v", err)
	}
	seen := map[string]bool{}
	for _, f := range files {
		alg := strings.TrimSuffix(filepath.Base(f), ".json")
		seen[alg] = true
		doc := readShared(t, "envelopes", filepath.Base(f))
		results, err := Verify(doc, VerifyOptions{})
		switch {
		case strings.HasPrefix(alg, "HS"):
			expectRefused(t, alg, results, err, ErrHMAC)
		case alg == "Ed448":
			expectRefused(t, alg, results, err, ErrUnsupportedAlgorithm)
		case keyFile[alg] != "":
			if err != nil || len(results) != 1 || !results[0].Valid || results[0].Algorithm != alg {
				t.Errorf("%s: got %+v, %v; want one valid %s signature", alg, results, err, alg)
				continue
			}
			want, err := NewJWK(publicKeyPEM(t, "keys", keyFile[alg]))
			if err != nil {
				t.Fatal(err)
			}
			if results[0].Thumbprint != Thumbprint(want) {
				t.Errorf("%s: signed by %s, want the key of keys/%s (%s)", alg, results[0].Thumbprint, keyFile[alg], Thumbprint(want))
			}
			checkTampering(t, alg, doc, "", VerifyOptions{})
		default:
			t.Errorf("%s: envelope for an algorithm this test does not know", alg)
		}
	}
	for alg := range keyFile {
		if !seen[alg] {
			t.Errorf("no envelope for %s", alg)
		}
	}
}

func expectRefused(t *testing.T, name string, results []Result, err, want error) {
	t.Helper()
	if !errors.Is(err, want) || len(results) == 0 {
		t.Errorf("%s: got %v; want %v", name, err, want)
		return
	}
	for _, r := range results {
		if r.Valid || !errors.Is(r.Err, want) {
			t.Errorf("%s: result %+v; want refused with %v", name, r, want)
		}
	}
}

// TestJSFSpecVectors verifies the Appendix A vectors of the JSF specification.
func TestJSFSpecVectors(t *testing.T) {
	t.Parallel()
	resolve := specKeys(t)
	tests := []struct {
		file     string
		property string
		form     Form
		signers  int
		refused  error
	}{
		{file: "p256#es256@kid.json", form: FormSingle, signers: 1},
		{file: "p256#es256@exts-jwk.json", form: FormSingle, signers: 1},
		{file: "p256#es256@name-jwk.json", property: "authorizationSignature", form: FormSingle, signers: 1},
		{file: "r2048#rs256@jwk.json", form: FormSingle, signers: 1},
		{file: "r2048#rs256@kid.json", form: FormSingle, signers: 1},
		{file: "p256#es256,r2048#rs256@mult-jwk.json", form: FormMultiple, signers: 2},
		{file: "p256#es256,r2048#rs256@mult-exts-kid.json", form: FormMultiple, signers: 2},
		{file: "p256#es256,r2048#rs256@chai-jwk.json", form: FormChain, signers: 2},
		{file: "p256#es256,r2048#rs256@chai-exts-kid.json", form: FormChain, signers: 2},
		// Our profile forbids "excludes": both vectors must be refused, naming it.
		{file: "p256#es256@excl-jwk.json", refused: ErrExcludes},
		{file: "p256#es256,r2048#rs256@mult-excl-kid.json", refused: ErrExcludes},
	}
	covered := map[string]bool{}
	for _, tt := range tests {
		covered[tt.file] = true
		doc := readShared(t, "interop", "jsf-spec", tt.file)
		opts := VerifyOptions{Property: tt.property, ResolveKeyFunc: resolve}
		results, err := Verify(doc, opts)
		if tt.refused != nil {
			expectRefused(t, tt.file, results, err, tt.refused)
			wantForm := FormSingle
			if strings.Contains(tt.file, "@mult") {
				wantForm = FormMultiple
			}
			if len(results) != 1 || results[0].Form != wantForm {
				t.Errorf("%s: refused as %+v, want one %v result", tt.file, results, wantForm)
			}
			if err == nil || !strings.Contains(err.Error(), `"excludes"`) {
				t.Errorf("%s: error %v does not name \"excludes\"", tt.file, err)
			}
			continue
		}
		if err != nil || len(results) != tt.signers {
			t.Errorf("%s: got %d results, %v; want %d valid", tt.file, len(results), err, tt.signers)
			continue
		}
		for i, r := range results {
			if !r.Valid || r.Form != tt.form || r.Pointer != "" || (tt.form != FormSingle && r.Index != i) {
				t.Errorf("%s: result %d = %+v", tt.file, i, r)
			}
		}
		checkTampering(t, tt.file, doc, "", opts)
	}
	// Each vector must be covered above, so that a new one is not silently ignored.
	files, _ := filepath.Glob(sharedDir(t, "interop", "jsf-spec", "*.json"))
	for _, f := range files {
		if !covered[filepath.Base(f)] {
			t.Errorf("jsf-spec vector %s is not tested", filepath.Base(f))
		}
	}
	// Under the default property name the renamed signature is not found at all.
	doc := readShared(t, "interop", "jsf-spec", "p256#es256@name-jwk.json")
	if _, err := Verify(doc, VerifyOptions{}); !errors.Is(err, ErrNoSignature) {
		t.Errorf("name-jwk under \"signature\": got %v, want ErrNoSignature", err)
	}
}

// TestWebPKIVectors verifies the node-webpki.org vectors: embedded keys, implicit keys
// supplied by the caller, and certificate paths checked against rootca.pem at a time
// inside every certificate's validity (the leaves run 2018-01-01 to 2022-12-31).
func TestWebPKIVectors(t *testing.T) {
	t.Parallel()
	signedAt := time.Date(2019, 2, 10, 11, 23, 6, 0, time.UTC) // the vectors' own "now"
	roots := x509.NewCertPool()
	roots.AddCert(certificatesPEM(t, "interop", "webpki", "rootca.pem")[0])
	implicit := map[string]crypto.PublicKey{
		"p256":  publicKeyPEM(t, "interop", "webpki", "p256publickey.pem"),
		"p384":  privateKeyPEM(t, "interop", "webpki", "p384privatekey.pem").Public(),
		"p521":  privateKeyPEM(t, "interop", "webpki", "p521privatekey.pem").Public(),
		"r2048": privateKeyPEM(t, "interop", "webpki", "r2048privatekey.pem").Public(),
	}
	files, err := filepath.Glob(sharedDir(t, "interop", "webpki", "*.json"))
	if err != nil || len(files) != 12 {
		t.Fatalf("want 12 webpki vectors, found %d: %v", len(files), err)
	}
	for _, f := range files {
		name := filepath.Base(f)
		key := implicit[name[:strings.IndexByte(name, '#')]]
		doc := readShared(t, "interop", "webpki", name)
		opts := VerifyOptions{
			ResolveKeyFunc: mapResolver(map[string]crypto.PublicKey{"": key}),
			Roots:          roots,
			CurrentTime:    signedAt,
		}
		results, err := Verify(doc, opts)
		if err != nil || len(results) != 1 || !results[0].Valid {
			t.Errorf("%s: got %+v, %v; want one valid signature", name, results, err)
			continue
		}
		want, _ := NewJWK(key)
		if results[0].Thumbprint != Thumbprint(want) {
			t.Errorf("%s: signed by %s, want %s", name, results[0].Thumbprint, Thumbprint(want))
		}
		checkTampering(t, name, doc, "", opts)
		if !strings.HasSuffix(name, "@cer.json") {
			continue
		}
		if len(results[0].Certificates) != 2 {
			t.Errorf("%s: %d certificates reported, want 2", name, len(results[0].Certificates))
		}
		other := x509.NewCertPool()
		other.AddCert(certificatesPEM(t, "interop", "webpki", "otherca.pem")[0])
		for label, o := range map[string]VerifyOptions{
			"another root":      {Roots: other, CurrentTime: signedAt},
			"no roots":          {CurrentTime: signedAt},
			"after leaf expiry": {Roots: roots, CurrentTime: time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)},
		} {
			if _, err := Verify(doc, o); !errors.Is(err, ErrCertificatePath) {
				t.Errorf("%s with %s: got %v, want ErrCertificatePath", name, label, err)
			}
		}
	}
}

// checkTampering asserts that changing one character of the payload breaks every
// signer, and that changing one character of signer i's value breaks signer i and, in a
// chain, the signers after it (which sign i's value) but no other.
func checkTampering(t *testing.T, name string, doc []byte, pointer string, opts VerifyOptions) {
	t.Helper()
	property := opts.property()
	root := mustParseObject(t, doc)
	signed := mustLookupObject(t, root, pointer)
	changed := false
	for member, v := range signed.All() {
		if s, ok := v.(string); ok && s != "" && member != property {
			signed.Set(member, flipChar(s, 0))
			changed = true
			break
		}
	}
	if !changed {
		t.Fatalf("%s: the object at %q has no string member to tamper with", name, pointer)
	}
	results, err := Verify(mustMarshal(t, root), opts)
	if err == nil || len(results) == 0 {
		t.Errorf("%s: tampered payload still verifies", name)
	}
	for _, r := range results {
		if r.Valid || !errors.Is(r.Err, ErrBadSignature) {
			t.Errorf("%s: tampered payload: %+v, want ErrBadSignature", name, r)
		}
	}

	root = mustParseObject(t, doc)
	env, err := readEnvelope(mustGet(t, mustLookupObject(t, root, pointer), property).(*Object))
	if err != nil {
		t.Fatal(err)
	}
	for i := range env.count() {
		tampered := mustParseObject(t, doc)
		tenv, _ := readEnvelope(mustGet(t, mustLookupObject(t, tampered, pointer), property).(*Object))
		signer := tenv.signerAt(i)
		value := mustGet(t, signer, "value").(string)
		signer.Set("value", flipChar(value, len(value)/2))
		results, err := Verify(mustMarshal(t, tampered), opts)
		if err == nil {
			t.Errorf("%s: signer %d with a tampered value still verifies", name, i)
		}
		for j, r := range results {
			broken := j == i || (env.form == FormChain && j > i)
			if r.Valid == broken {
				t.Errorf("%s: value of signer %d tampered: signer %d valid=%v, want %v (%v)", name, i, j, r.Valid, !broken, r.Err)
			}
		}
	}
}

// flipChar replaces the character at i by another one of the base64url alphabet.
func flipChar(s string, i int) string {
	c := byte('A')
	if s[i] == 'A' {
		c = 'B'
	}
	return s[:i] + string(c) + s[i+1:]
}

func mustLookupObject(t testing.TB, root any, pointer string) *Object {
	t.Helper()
	obj, err := LookupObject(root, pointer)
	if err != nil {
		t.Fatal(err)
	}
	return obj
}

func mustGet(t testing.TB, obj *Object, name string) any {
	t.Helper()
	v, ok := obj.Get(name)
	if !ok {
		t.Fatalf("no member %q", name)
	}
	return v
}
