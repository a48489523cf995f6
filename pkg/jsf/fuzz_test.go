package jsf

import (
	"bytes"
	"crypto"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzCanonicalize: Canonicalize never panics; what it accepts, encoding/json accepts
// too, and canonicalising the output changes nothing.
func FuzzCanonicalize(f *testing.F) {
	for _, seed := range []string{
		`{"b":[1,2.5,-0,1e21,1e-7],"a":{"\u20ac":"\u0000\n","\ud83d\ude00":true,"\ufb33":null}}`,
		`"\ud800"`, `{"a":1,"a":2}`, "\"\xff\"", `[1e400]`, `01`, `[[[[]]]]`, ` 123.456e-789 `,
		`333333333.33333329`, `{"":""}`, "\"\u007f\u2028\"",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := Canonicalize(data)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a *SyntaxError", err)
			}
			return
		}
		if !json.Valid(out) {
			t.Fatalf("output is not JSON: %q", out)
		}
		var v any
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatalf("encoding/json refuses the output %q: %v", out, err)
		}
		again, err := Canonicalize(out)
		if err != nil {
			t.Fatalf("canonical output %q does not parse: %v", out, err)
		}
		if !bytes.Equal(again, out) {
			t.Fatalf("not idempotent:\n%q\n%q", out, again)
		}
	})
}

// FuzzVerify: Verify never panics on any input and always gives either a verdict for
// every signature it found or an error.
func FuzzVerify(f *testing.F) {
	for _, dir := range []string{"envelopes", filepath.Join("interop", "jsf-spec"), filepath.Join("interop", "webpki")} {
		files, _ := filepath.Glob(filepath.Join(sharedDir(f, dir), "*.json"))
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data)
			}
		}
	}
	f.Add([]byte(`{"signature":{"signers":[{"algorithm":"ES256","value":"AA"}]}}`))
	f.Add([]byte(`{"signature":{"chain":[{"algorithm":"RS256","keyId":"k","value":"AA"}],"extensions":["x"]}}`))
	resolve := func(id string) (crypto.PublicKey, error) {
		if id == "nil" {
			return nil, nil
		}
		return nil, errors.New("unknown key")
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, prop := range []string{"", "authorizationSignature"} {
			results, err := Verify(data, VerifyOptions{Property: prop, ResolveKeyFunc: resolve})
			if err == nil && len(results) == 0 {
				t.Fatal("no error and no results")
			}
			for _, r := range results {
				if r.Valid == (r.Err != nil) {
					t.Fatalf("result %+v: Valid and Err disagree", r)
				}
				if r.Valid && err != nil && len(results) == 1 {
					t.Fatalf("the only result is valid but Verify failed: %v", err)
				}
			}
		}
	})
}
