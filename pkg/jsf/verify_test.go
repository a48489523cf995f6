package jsf

import (
	"errors"
	"strings"
	"testing"
)

// specKey is the P-256 key of the JSF specification, as a publicKey member.
const specKey = `"publicKey":{"kty":"EC","crv":"P-256","x":"6BKxpty8cI-exDzCkh-goU6dXq3MbcY0cd1LaAxiNrU","y":"mCbcvUzm44j3Lt2b5BPyQloQ91tf2D2V-gzeUxWaUdg"}`

// TestVerifyRefusesMalformed covers signature objects that must be refused before any
// cryptography: a verifier that tolerated them would accept data its author did not sign,
// or disagree with other verifiers about it.
func TestVerifyRefusesMalformed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, doc string
		want      error
	}{
		{"unknown property", `{"a":1,"signature":{"algorithm":"ES256",` + specKey + `,"note":"x","value":"AA"}}`, ErrMalformed},
		{"extension not listed", `{"signature":{"algorithm":"ES256","extensions":["x"],"y":1,` + specKey + `,"value":"AA"}}`, ErrMalformed},
		{"extension named like a JSF property", `{"signature":{"algorithm":"ES256","extensions":["keyId"],` + specKey + `,"value":"AA"}}`, ErrMalformed},
		{"extension listed twice", `{"signature":{"algorithm":"ES256","extensions":["x","x"],` + specKey + `,"value":"AA"}}`, ErrMalformed},
		{"empty extensions", `{"signature":{"algorithm":"ES256","extensions":[],` + specKey + `,"value":"AA"}}`, ErrMalformed},
		{"extensions inside a signer", `{"signature":{"signers":[{"algorithm":"ES256","extensions":["x"],` + specKey + `,"value":"AA"}]}}`, ErrMalformed},
		{"publicKey and certificatePath", `{"signature":{"algorithm":"ES256",` + specKey + `,"certificatePath":["AA"],"value":"AA"}}`, ErrMalformed},
		{"value missing", `{"signature":{"algorithm":"ES256",` + specKey + `}}`, ErrMalformed},
		{"algorithm not a string", `{"signature":{"algorithm":256,` + specKey + `,"value":"AA"}}`, ErrMalformed},
		{"value padded", `{"signature":{"algorithm":"ES256",` + specKey + `,"value":"AA=="}}`, ErrMalformed},
		{"value not base64url", `{"signature":{"algorithm":"ES256",` + specKey + `,"value":"A+/A"}}`, ErrMalformed},
		{"empty signers", `{"signature":{"signers":[]}}`, ErrMalformed},
		{"signer not an object", `{"signature":{"signers":["x"]}}`, ErrMalformed},
		{"too many signers", `{"signature":{"signers":[` + strings.Repeat(`{"algorithm":"ES256","value":"AA"},`, MaxSigners) + `{"algorithm":"ES256","value":"AA"}]}}`, ErrMalformed},
		{"signers and chain", `{"signature":{"signers":[{}],"chain":[{}]}}`, ErrMalformed},
		{"property beside signers", `{"signature":{"signers":[{"algorithm":"ES256","value":"AA"}],"algorithm":"ES256"}}`, ErrMalformed},
		{"excludes", `{"signature":{"algorithm":"ES256",` + specKey + `,"excludes":["a"],"value":"AA"}}`, ErrExcludes},
		{"excludes inside a signer", `{"signature":{"signers":[{"algorithm":"ES256",` + specKey + `,"excludes":["a"],"value":"AA"}]}}`, ErrExcludes},
		{"private key embedded", `{"signature":{"algorithm":"ES256","publicKey":{"kty":"EC","crv":"P-256","x":"6BKxpty8cI-exDzCkh-goU6dXq3MbcY0cd1LaAxiNrU","y":"mCbcvUzm44j3Lt2b5BPyQloQ91tf2D2V-gzeUxWaUdg","d":"6XxMFXhcYT5QN9w5TIg2aSKsbcj-pj4BnZkK7ZOt4B8"},"value":"AA"}}`, ErrJWK},
		{"algorithm for another curve", `{"signature":{"algorithm":"ES384",` + specKey + `,"value":"AA"}}`, ErrKeyMismatch},
		{"ECDSA value of the wrong length", `{"signature":{"algorithm":"ES256",` + specKey + `,"value":"AAAA"}}`, ErrBadSignature},
		{"HMAC", `{"signature":{"algorithm":"HS256","keyId":"k","value":"AA"}}`, ErrHMAC},
		{"no key", `{"signature":{"algorithm":"ES256","value":"AA"}}`, ErrNoKey},
		{"bad certificate", `{"signature":{"algorithm":"ES256","certificatePath":["AAAA"],"value":"AA"}}`, ErrCertificatePath},
		{"no signature", `{"a":{"signature":"not JSF"},"b":{"signature":{"kind":"pgp","value":"x"}}}`, ErrNoSignature},
		{"duplicate key", `{"a":1,"a":2,"signature":{"algorithm":"ES256",` + specKey + `,"value":"AA"}}`, ErrDuplicateKey},
	}
	for _, tt := range tests {
		results, err := Verify([]byte(tt.doc), VerifyOptions{})
		if !errors.Is(err, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, err, tt.want)
		}
		for _, r := range results {
			if r.Valid || r.Err == nil {
				t.Errorf("%s: result %+v is not refused", tt.name, r)
			}
		}
	}
}

// TestVerifyReportsEverySignature: one broken signature fails the document but the other
// results still say which signatures hold, and where.
func TestVerifyReportsEverySignature(t *testing.T) {
	t.Parallel()
	valid := string(readShared(t, "interop", "jsf-spec", "p256#es256@exts-jwk.json"))
	doc := `{"items":[` + valid + `,{"x/y":{"signature":{"algorithm":"Ed448","value":"AA"}}}]}`
	results, err := Verify([]byte(doc), VerifyOptions{})
	if err == nil || !strings.Contains(err.Error(), `"/items/1/x~1y"`) {
		t.Errorf("error %v does not name the broken signature's pointer", err)
	}
	if len(results) != 2 || !results[0].Valid || results[0].Pointer != "/items/0" ||
		results[1].Valid || results[1].Pointer != "/items/1/x~1y" || !errors.Is(results[1].Err, ErrUnsupportedAlgorithm) {
		t.Errorf("got %+v", results)
	}
}

// TestCyclicTree: a hand-built tree that contains itself is refused, not followed forever.
func TestCyclicTree(t *testing.T) {
	t.Parallel()
	obj := NewObject(Member{"a", 1.0})
	obj.Set("self", obj)
	if _, err := VerifyTree(obj, VerifyOptions{}); !errors.Is(err, ErrTooDeep) {
		t.Errorf("VerifyTree: got %v, want ErrTooDeep", err)
	}
	if _, err := MarshalCanonical(obj); !errors.Is(err, ErrUnsupportedValue) {
		t.Errorf("MarshalCanonical: got %v, want ErrUnsupportedValue", err)
	}
}
