package jsf

import (
	"crypto"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sharedDir returns the shared JSF vectors: $SHARED_DATA_DIR/jsf when set, else
// ../../../shared/data/jsf (beside the checkout). The vectors are the only proof of
// interoperability, so their absence fails the test rather than skipping it.
func sharedDir(t testing.TB, parts ...string) string {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "shared", "data", "jsf")
	if d := os.Getenv("SHARED_DATA_DIR"); d != "" {
		dir = filepath.Join(d, "jsf")
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		abs, _ := filepath.Abs(dir)
		t.Fatalf("shared JSF test vectors not found at %s (set SHARED_DATA_DIR to the folder holding jsf/): %v", abs, err)
	}
	return filepath.Join(append([]string{dir}, parts...)...)
}

func readShared(t testing.TB, parts ...string) []byte {
	t.Helper()
	data, err := os.ReadFile(sharedDir(t, parts...))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// pemBlocks returns the DER of every PEM block in a shared file.
func pemBlocks(t testing.TB, parts ...string) [][]byte {
	t.Helper()
	rest := readShared(t, parts...)
	var out [][]byte
	for {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break
		}
		out = append(out, block.Bytes)
	}
	if len(out) == 0 {
		t.Fatalf("%s holds no PEM block", filepath.Join(parts...))
	}
	return out
}

// privateKeyPEM reads a PKCS#8 private key.
func privateKeyPEM(t testing.TB, parts ...string) crypto.Signer {
	t.Helper()
	key, err := x509.ParsePKCS8PrivateKey(pemBlocks(t, parts...)[0])
	if err != nil {
		t.Fatalf("%s: %v", filepath.Join(parts...), err)
	}
	return key.(crypto.Signer)
}

// publicKeyPEM reads an SPKI public key.
func publicKeyPEM(t testing.TB, parts ...string) crypto.PublicKey {
	t.Helper()
	pub, err := x509.ParsePKIXPublicKey(pemBlocks(t, parts...)[0])
	if err != nil {
		t.Fatalf("%s: %v", filepath.Join(parts...), err)
	}
	return pub
}

func certificatesPEM(t testing.TB, parts ...string) []*x509.Certificate {
	t.Helper()
	var certs []*x509.Certificate
	for _, der := range pemBlocks(t, parts...) {
		c, err := x509.ParseCertificate(der)
		if err != nil {
			t.Fatal(err)
		}
		certs = append(certs, c)
	}
	return certs
}

// specKeys reads the jsf-spec folder's private JWKs and returns their public halves by
// kid, as a resolver.
func specKeys(t testing.TB) func(string) (crypto.PublicKey, error) {
	t.Helper()
	files, err := filepath.Glob(sharedDir(t, "interop", "jsf-spec", "*.jwk"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no *.jwk in jsf-spec: %v", err)
	}
	keys := map[string]crypto.PublicKey{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var k struct {
			JWK
			Kid string `json:"kid"`
		}
		if err := json.Unmarshal(data, &k); err != nil {
			t.Fatal(err)
		}
		pub, err := k.PublicKey()
		if strings.Contains(f, "ed448") {
			if !errors.Is(err, ErrJWK) {
				t.Errorf("%s: Ed448 JWK: got %v, want ErrJWK", f, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		keys[k.Kid] = pub
	}
	return mapResolver(keys)
}

func mapResolver(keys map[string]crypto.PublicKey) func(string) (crypto.PublicKey, error) {
	return func(id string) (crypto.PublicKey, error) {
		if k, ok := keys[id]; ok {
			return k, nil
		}
		return nil, errors.New("unknown key")
	}
}

func mustParseObject(t testing.TB, data []byte) *Object {
	t.Helper()
	obj, err := ParseObject(data)
	if err != nil {
		t.Fatal(err)
	}
	return obj
}

func mustMarshal(t testing.TB, v any) []byte {
	t.Helper()
	data, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
