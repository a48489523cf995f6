package secret_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/secret"
)

// aadJWT names the record every test seals unless it is about the associated data itself.
const aadJWT = "app_config/value/jwt_secret"

// newMaster returns a random master key, as `openssl rand -hex 32` would give one.
func newMaster(tb testing.TB) []byte {
	tb.Helper()
	master := make([]byte, secret.KeySize)
	_, err := rand.Read(master)
	require.NoError(tb, err)
	return master
}

// newLedger creates KEK versions 1..n under master, the last one current, as the
// database would hold them after n-1 rotations.
func newLedger(tb testing.TB, master []byte, n int) []secret.KeyVersion {
	tb.Helper()
	ledger := make([]secret.KeyVersion, 0, n)
	for v := 1; v <= n; v++ {
		kv, _, err := secret.NewKeyVersion(master, v, "test", time.Unix(1700000000, 0))
		require.NoError(tb, err)
		kv.Current = v == n
		ledger = append(ledger, kv)
	}
	return ledger
}

// newKeyring returns a keyring with a fresh master key and one KEK version.
func newKeyring(tb testing.TB) (*secret.Keyring, []byte, []secret.KeyVersion) {
	tb.Helper()
	master := newMaster(tb)
	ledger := newLedger(tb, master, 1)
	return secret.NewKeyring(master, ledger), master, ledger
}

// requireCode asserts err is an *assess.Error with the given code: the code is what the
// HTTP layer turns into a status and what clients switch on.
func requireCode(tb testing.TB, err error, code string) {
	tb.Helper()
	require.Error(tb, err)
	var ae *assess.Error
	require.True(tb, errors.As(err, &ae), "want *assess.Error with code %s, got %T: %v", code, err, err)
	require.Equal(tb, code, ae.Code, "error: %v", err)
}

func TestSealOpenRoundTrip(t *testing.T) {
	t.Parallel()

	mib := make([]byte, 1<<20)
	_, err := rand.Read(mib)
	require.NoError(t, err)

	for _, tc := range []struct {
		name      string
		plaintext []byte
	}{
		{"empty", []byte{}},
		{"short", []byte("s3cr3t")},
		{"one MiB", mib},
		{"not UTF-8", []byte{0xff, 0xfe, 0x00, 0xc3, 0x28, '$', 0x80}},
		{"looks encrypted", []byte(secret.Prefix + "1$AAAA$BBBB")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			kr, _, _ := newKeyring(t)

			stored, err := kr.Seal(ctx, aadJWT, tc.plaintext)
			require.NoError(t, err)
			require.True(t, strings.HasPrefix(stored, secret.Prefix), "stored value %.40q", stored)
			require.True(t, secret.IsEncrypted(stored))
			if len(tc.plaintext) >= 4 {
				require.NotContains(t, stored, string(tc.plaintext))
			}
			version, err := secret.ParseVersion(stored)
			require.NoError(t, err)
			require.Equal(t, kr.Current(), version)
			require.Equal(t, 1, version)

			got, err := kr.Open(ctx, aadJWT, stored)
			require.NoError(t, err)
			require.True(t, bytes.Equal(tc.plaintext, got), "plaintext differs after the round trip")

			again, err := kr.Seal(ctx, aadJWT, tc.plaintext)
			require.NoError(t, err)
			require.NotEqual(t, stored, again, "two seals of one plaintext must differ")
			p1, p2 := strings.Split(stored, "$"), strings.Split(again, "$")
			require.NotEqual(t, p1[3], p2[3], "the wrapped data key must be fresh")
			require.NotEqual(t, p1[4], p2[4], "the ciphertext must be fresh")
		})
	}
}

// storedParts splits an encrypted value into its version, wrapped data key and data
// parts; the offsets are those of the parts inside stored.
func storedParts(t *testing.T, stored string) (parts [3]string, offsets [3]int) {
	t.Helper()
	rest, ok := strings.CutPrefix(stored, secret.Prefix)
	require.True(t, ok)
	split := strings.Split(rest, "$")
	require.Len(t, split, 3)
	off := len(secret.Prefix)
	for i, p := range split {
		parts[i], offsets[i] = p, off
		off += len(p) + 1
	}
	return parts, offsets
}

func TestOpenDetectsEveryBitFlip(t *testing.T) {
	t.Parallel()

	// Plaintext lengths chosen so the data part does and does not end in a base64
	// character with unused low bits (12-byte nonce + plaintext + 16-byte tag).
	for _, plaintext := range []string{"ab", "abc", "abcd", strings.Repeat("x", 48)} {
		t.Run(fmt.Sprintf("%d bytes", len(plaintext)), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			kr, _, _ := newKeyring(t)
			stored, err := kr.Seal(ctx, aadJWT, []byte(plaintext))
			require.NoError(t, err)

			// The version digit is covered by TestOpenTamperedVersion.
			_, offsets := storedParts(t, stored)
			for part, name := range map[int]string{1: "wrapped data key", 2: "data"} {
				end := len(stored)
				if part == 1 {
					end = offsets[2] - 1
				}
				for i := offsets[part]; i < end; i++ {
					for bit := range 8 {
						b := []byte(stored)
						b[i] ^= 1 << bit
						got, err := kr.Open(ctx, aadJWT, string(b))
						if err == nil {
							t.Errorf("%s part: flipping bit %d of byte %d (%q→%q) still opens, to %q",
								name, bit, i, stored[i], b[i], got)
							continue
						}
						requireCode(t, err, assess.ECodeIntegrity)
					}
				}
			}
		})
	}
}

func TestOpenTamperedVersion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	master := newMaster(t)
	kr := secret.NewKeyring(master, newLedger(t, master, 2))

	stored, err := kr.Seal(ctx, aadJWT, []byte("s3cr3t"))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(stored, secret.Prefix+"2$"))

	// Pointing the value at the other known version fails the integrity check.
	_, err = kr.Open(ctx, aadJWT, strings.Replace(stored, secret.Prefix+"2$", secret.Prefix+"1$", 1))
	requireCode(t, err, assess.ECodeIntegrity)
	// Version 0 does not exist.
	_, err = kr.Open(ctx, aadJWT, strings.Replace(stored, secret.Prefix+"2$", secret.Prefix+"0$", 1))
	requireCode(t, err, assess.ECodeIntegrity)
	// A version nobody knows cannot be told apart from a rotation this process missed.
	_, err = kr.Open(ctx, aadJWT, strings.Replace(stored, secret.Prefix+"2$", secret.Prefix+"3$", 1))
	requireCode(t, err, assess.ECodeKeyUnavailable)
}

func TestOpenRefusesAnotherRecordsValue(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	kr, _, _ := newKeyring(t)

	stored, err := kr.Seal(ctx, "app_config/value/a", []byte("s3cr3t"))
	require.NoError(t, err)
	got, err := kr.Open(ctx, "app_config/value/a", stored)
	require.NoError(t, err)
	require.Equal(t, []byte("s3cr3t"), got)

	for _, aad := range []string{
		"app_config/value/b",      // copied to another row
		"app_config/other/a",      // copied to another column
		"webhooks/secret/a",       // copied to another table
		"app_config/value/a ",     // not a prefix match
		"app_config/value",        // truncated identity
		"",                        // no identity at all
		"APP_CONFIG/VALUE/A",      // case matters
		"app_config/value/a/../a", // not normalised
	} {
		_, err := kr.Open(ctx, aad, stored)
		requireCode(t, err, assess.ECodeIntegrity)
	}
}

func TestOpenMalformedValues(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	kr, _, _ := newKeyring(t)
	stored, err := kr.Seal(ctx, aadJWT, []byte("s3cr3t"))
	require.NoError(t, err)
	parts, _ := storedParts(t, stored)

	for name, bad := range map[string]string{
		"prefix only":          secret.Prefix,
		"one part":             secret.Prefix + "1",
		"two parts":            secret.Prefix + "1$" + parts[1],
		"four parts":           stored + "$" + parts[2],
		"empty parts":          secret.Prefix + "$$",
		"version zero":         secret.Prefix + "0$" + parts[1] + "$" + parts[2],
		"negative version":     secret.Prefix + "-1$" + parts[1] + "$" + parts[2],
		"version not a number": secret.Prefix + "v1$" + parts[1] + "$" + parts[2],
		"version overflows":    secret.Prefix + "99999999999999999999999$" + parts[1] + "$" + parts[2],
		"standard base64":      secret.Prefix + "1$" + parts[1] + "+/$" + parts[2],
		"padded base64":        secret.Prefix + "1$" + parts[1] + "$" + parts[2] + "==",
		"not base64":           secret.Prefix + "1$" + parts[1] + "$" + "!!!!",
		"empty data key":       secret.Prefix + "1$$" + parts[2],
		"empty data":           secret.Prefix + "1$" + parts[1] + "$",
		"data key truncated":   secret.Prefix + "1$" + parts[1][:len(parts[1])-4] + "$" + parts[2],
		"data truncated":       secret.Prefix + "1$" + parts[1] + "$" + parts[2][:len(parts[2])-4],
		"data key too short":   secret.Prefix + "1$" + parts[1][:20] + "$" + parts[2],
		"data nonce only":      secret.Prefix + "1$" + parts[1] + "$" + parts[2][:16],
		"parts swapped":        secret.Prefix + "1$" + parts[2] + "$" + parts[1],
		"whole value cut":      stored[:len(stored)/2],
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			require.NotPanics(t, func() {
				_, err := kr.Open(ctx, aadJWT, bad)
				requireCode(t, err, assess.ECodeIntegrity)
			})
		})
	}
}

func TestParseVersion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	master := newMaster(t)
	kr := secret.NewKeyring(master, newLedger(t, master, 3))
	stored, err := kr.Seal(ctx, aadJWT, []byte("s3cr3t"))
	require.NoError(t, err)

	v, err := secret.ParseVersion(stored)
	require.NoError(t, err)
	require.Equal(t, 3, v)

	for _, bad := range []string{"", "plain text", secret.Prefix, secret.Prefix + "x$a$b"} {
		_, err := secret.ParseVersion(bad)
		requireCode(t, err, assess.ECodeIntegrity)
	}
}

// TestOpenRefusesNonCanonicalValues: a stored value opens only in the exact form Seal
// wrote, so a changed stored value is always reported, never silently accepted.
func TestOpenRefusesNonCanonicalValues(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	kr, _, _ := newKeyring(t)
	stored, err := kr.Seal(ctx, aadJWT, []byte("abcd"))
	require.NoError(t, err)
	parts, _ := storedParts(t, stored)
	require.NotEqual(t, 0, (12+4+16)%3, "the data part must end in a partial base64 group")

	// The lowest bit of the last character carries no data when the byte count is not a
	// multiple of three; a lenient decoder ignores it.
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	last := strings.IndexByte(alphabet, parts[2][len(parts[2])-1])
	require.GreaterOrEqual(t, last, 0)
	spare := alphabet[last^1]
	for name, variant := range map[string]string{
		"version with plus sign":    secret.Prefix + "+1$" + parts[1] + "$" + parts[2],
		"version with leading zero": secret.Prefix + "01$" + parts[1] + "$" + parts[2],
		"newline inside data key":   secret.Prefix + "1$" + parts[1][:10] + "\n" + parts[1][10:] + "$" + parts[2],
		"carriage return in data":   secret.Prefix + "1$" + parts[1] + "$" + parts[2][:10] + "\r" + parts[2][10:],
		"unused trailing bits set":  secret.Prefix + "1$" + parts[1] + "$" + parts[2][:len(parts[2])-1] + string(spare),
	} {
		_, err := kr.Open(ctx, aadJWT, variant)
		if err == nil {
			t.Errorf("%s: %q differs from the sealed value but opens", name, variant)
			continue
		}
		requireCode(t, err, assess.ECodeIntegrity)
	}
}
