package secret_test

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/secret"
)

// fuzzKeyring is the same in every fuzzing process: the seed corpus is sealed in one
// process and opened in others, so master key and KEK are fixed rather than random.
func fuzzKeyring() *secret.Keyring {
	master := bytes.Repeat([]byte{0x4d}, secret.KeySize)
	kr := secret.NewKeyring(master, nil)
	kr.AddVersion(1, bytes.Repeat([]byte{0x6b}, secret.KeySize))
	return kr
}

// fuzzSealed lists what the seed corpus seals, by record identity.
var fuzzSealed = map[string][]string{
	"app_config/value/jwt_secret": {"", "0123456789abcdef0123456789abcdef0123456789abcdef"},
	"webhooks/secret/wh_1":        {"whsec_1", secret.Prefix + "1$not$real"},
	"smtp/password/1":             {"\xff\xfe\x00 not UTF-8 $"},
}

// FuzzOpen: Open never panics, refuses with a domain error, and never opens an encrypted
// value to anything but what was sealed for that record.
func FuzzOpen(f *testing.F) {
	ctx := context.Background()
	kr := fuzzKeyring()
	for aad, plaintexts := range fuzzSealed {
		for _, p := range plaintexts {
			stored, err := kr.Seal(ctx, aad, []byte(p))
			if err != nil {
				f.Fatal(err)
			}
			f.Add(stored, aad)
			f.Add(stored, "webhooks/secret/wh_2")
		}
	}
	for _, s := range []string{"", "plain", secret.Prefix, secret.Prefix + "1$$", secret.Prefix + "2$AAAA$AAAA", "$assay-enc2$1$a$b"} {
		f.Add(s, "app_config/value/jwt_secret")
	}

	f.Fuzz(func(t *testing.T, stored, aad string) {
		got, err := kr.Open(ctx, aad, stored)
		if !secret.IsEncrypted(stored) {
			if err != nil || string(got) != stored {
				t.Fatalf("plaintext %q opened to %q, %v", stored, got, err)
			}
			return
		}
		if err != nil {
			var ae *assess.Error
			if !errors.As(err, &ae) || (ae.Code != assess.ECodeIntegrity && ae.Code != assess.ECodeKeyUnavailable) {
				t.Fatalf("Open(%q, %q) failed with %T %v, want an integrity or key error", aad, stored, err, err)
			}
			return
		}
		if !slices.Contains(fuzzSealed[aad], string(got)) {
			t.Fatalf("Open(%q, %q) = %q, which was never sealed for that record", aad, stored, got)
		}
	})
}
