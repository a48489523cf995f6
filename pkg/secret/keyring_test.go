package secret_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/secret"
)

// unavailableCall records one OnUnavailable call: what the audit log would receive.
type unavailableCall struct {
	version int
	aad     string
}

// auditRecorder collects OnUnavailable calls; its method is safe for concurrent use.
type auditRecorder struct {
	mu    sync.Mutex
	calls []unavailableCall
}

func (r *auditRecorder) record(_ context.Context, version int, aad string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, unavailableCall{version, aad})
}

func (r *auditRecorder) all() []unavailableCall {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]unavailableCall(nil), r.calls...)
}

func TestPassthroughStoresPlaintext(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	for name, kr := range map[string]*secret.Keyring{
		"nil master":   secret.NewKeyring(nil, nil),
		"empty master": secret.NewKeyring([]byte{}, nil),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			require.True(t, kr.Passthrough())
			require.Equal(t, 0, kr.Current())

			stored, err := kr.Seal(ctx, aadJWT, []byte("s3cr3t"))
			require.NoError(t, err)
			require.Equal(t, "s3cr3t", stored)
			require.False(t, secret.IsEncrypted(stored))

			got, err := kr.Open(ctx, aadJWT, stored)
			require.NoError(t, err)
			require.Equal(t, []byte("s3cr3t"), got)

			// A plaintext that would read back as an encrypted value is refused rather
			// than stored in a form that later refuses to open.
			_, err = kr.Seal(ctx, aadJWT, []byte(secret.Prefix+"1$abc$def"))
			require.Error(t, err)
		})
	}
}

func TestPassthroughRefusesEncryptedValues(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	withKey, _, _ := newKeyring(t)
	stored, err := withKey.Seal(ctx, aadJWT, []byte("s3cr3t"))
	require.NoError(t, err)

	var audit auditRecorder
	var reloads atomic.Int32
	kr := secret.NewKeyring(nil, nil)
	kr.OnUnavailable = audit.record
	kr.Reload = func(context.Context) ([]secret.KeyVersion, error) {
		reloads.Add(1)
		return nil, nil
	}

	_, err = kr.Open(ctx, aadJWT, stored)
	requireCode(t, err, assess.ECodeKeyUnavailable)
	require.Contains(t, err.Error(), "MASTER_ENCRYPTION_KEY")
	require.Equal(t, []unavailableCall{{1, aadJWT}}, audit.all())
	require.Zero(t, reloads.Load(), "without a master key a reload cannot help")
}

func TestKeyringOpensPlaintextAndEncryptedValues(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	kr, _, _ := newKeyring(t)

	// A value written before the master key was configured.
	legacy, err := secret.NewKeyring(nil, nil).Seal(ctx, aadJWT, []byte("written-in-passthrough"))
	require.NoError(t, err)
	encrypted, err := kr.Seal(ctx, aadJWT, []byte("written-encrypted"))
	require.NoError(t, err)

	for stored, want := range map[string]string{
		legacy:    "written-in-passthrough",
		encrypted: "written-encrypted",
		"":        "",
	} {
		got, err := kr.Open(ctx, aadJWT, stored)
		require.NoError(t, err)
		require.Equal(t, want, string(got))
	}
}

func TestWrongMasterKey(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	masterA, masterB := newMaster(t), newMaster(t)
	ledger := newLedger(t, masterA, 1)
	stored, err := secret.NewKeyring(masterA, ledger).Seal(ctx, aadJWT, []byte("s3cr3t"))
	require.NoError(t, err)

	var audit auditRecorder
	var reloads atomic.Int32
	kr := secret.NewKeyring(masterB, ledger)
	kr.OnUnavailable = audit.record
	kr.Reload = func(context.Context) ([]secret.KeyVersion, error) {
		reloads.Add(1)
		return ledger, nil
	}

	require.False(t, kr.Passthrough())
	require.Equal(t, []int{1}, kr.Unusable())
	require.Equal(t, 0, kr.Current())

	_, err = kr.Seal(ctx, aadJWT, []byte("new"))
	requireCode(t, err, assess.ECodeKeyUnavailable)

	_, err = kr.Open(ctx, aadJWT, stored)
	requireCode(t, err, assess.ECodeKeyUnavailable)
	require.Equal(t, []unavailableCall{{1, aadJWT}}, audit.all())
	require.Zero(t, reloads.Load(), "a version known to be unusable needs no reload")

	// Plaintext values still open: the service keeps serving what does not need the key.
	got, err := kr.Open(ctx, aadJWT, "plain")
	require.NoError(t, err)
	require.Equal(t, []byte("plain"), got)
}

func TestWrongMasterKeyOnlyForSomeVersions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	masterA, masterB := newMaster(t), newMaster(t)
	// Version 1 under A, version 2 (current) under B: e.g. a half-finished rekey.
	v1, _, err := secret.NewKeyVersion(masterA, 1, "test", time.Now())
	require.NoError(t, err)
	v1.Current = false
	v2, _, err := secret.NewKeyVersion(masterB, 2, "test", time.Now())
	require.NoError(t, err)
	ledger := []secret.KeyVersion{v1, v2}

	kr := secret.NewKeyring(masterB, ledger)
	require.Equal(t, []int{1}, kr.Unusable())
	require.Equal(t, 2, kr.Current())
	stored, err := kr.Seal(ctx, aadJWT, []byte("s3cr3t"))
	require.NoError(t, err)
	got, err := kr.Open(ctx, aadJWT, stored)
	require.NoError(t, err)
	require.Equal(t, []byte("s3cr3t"), got)
}

func TestRotationRewrapsOnlyTheDataKey(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	kr, master, ledger := newKeyring(t)

	plaintexts := map[string]string{
		"app_config/value/jwt_secret": "jwt",
		"webhooks/secret/wh_1":        "whsec_1",
		"webhooks/secret/wh_2":        "",
	}
	sealedV1 := map[string]string{}
	for aad, p := range plaintexts {
		stored, err := kr.Seal(ctx, aad, []byte(p))
		require.NoError(t, err)
		sealedV1[aad] = stored
	}

	kv2, kek2, err := secret.NewKeyVersion(master, 2, "admin", time.Now())
	require.NoError(t, err)
	kr.AddVersion(2, kek2)
	require.Equal(t, 2, kr.Current())

	// Values not yet rewrapped still open under the kept version 1.
	for aad, stored := range sealedV1 {
		got, err := kr.Open(ctx, aad, stored)
		require.NoError(t, err)
		require.Equal(t, plaintexts[aad], string(got))
	}

	ledger[0].Current = false
	rotatedLedger := append(append([]secret.KeyVersion(nil), ledger...), kv2)
	restarted := secret.NewKeyring(master, rotatedLedger)
	require.Equal(t, 2, restarted.Current())

	for aad, stored := range sealedV1 {
		rewrapped, err := kr.Rewrap(ctx, aad, stored, 2)
		require.NoError(t, err)
		v, err := secret.ParseVersion(rewrapped)
		require.NoError(t, err)
		require.Equal(t, 2, v)

		before, _ := storedParts(t, stored)
		after, _ := storedParts(t, rewrapped)
		require.Equal(t, before[2], after[2], "the ciphertext is not re-encrypted")
		require.NotEqual(t, before[1], after[1], "the data key is wrapped under the new version")

		for _, k := range []*secret.Keyring{kr, restarted} {
			got, err := k.Open(ctx, aad, rewrapped)
			require.NoError(t, err)
			require.Equal(t, plaintexts[aad], string(got))
		}

		// Rewrapping again is a no-op: rotation can be re-run after an interruption.
		again, err := kr.Rewrap(ctx, aad, rewrapped, 2)
		require.NoError(t, err)
		require.Equal(t, rewrapped, again)
	}

	// New values are sealed under the new version.
	fresh, err := kr.Seal(ctx, aadJWT, []byte("new"))
	require.NoError(t, err)
	v, err := secret.ParseVersion(fresh)
	require.NoError(t, err)
	require.Equal(t, 2, v)
}

func TestRewrapEdgeCases(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	kr, _, _ := newKeyring(t)
	stored, err := kr.Seal(ctx, aadJWT, []byte("s3cr3t"))
	require.NoError(t, err)

	t.Run("plaintext is returned unchanged", func(t *testing.T) {
		t.Parallel()
		got, err := kr.Rewrap(ctx, aadJWT, "plain value", 1)
		require.NoError(t, err)
		require.Equal(t, "plain value", got)
	})
	t.Run("unknown target version", func(t *testing.T) {
		t.Parallel()
		_, err := kr.Rewrap(ctx, aadJWT, stored, 9)
		requireCode(t, err, assess.ECodeKeyUnavailable)
	})
	t.Run("malformed value", func(t *testing.T) {
		t.Parallel()
		_, err := kr.Rewrap(ctx, aadJWT, secret.Prefix+"1$x", 1)
		requireCode(t, err, assess.ECodeIntegrity)
	})
}

func TestRewrapRefusesAnotherRecordsValue(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	kr, master, _ := newKeyring(t)
	stored, err := kr.Seal(ctx, aadJWT, []byte("s3cr3t"))
	require.NoError(t, err)
	_, kek2, err := secret.NewKeyVersion(master, 2, "admin", time.Now())
	require.NoError(t, err)
	kr.AddVersion(2, kek2)

	_, err = kr.Rewrap(ctx, "app_config/value/other", stored, 2)
	requireCode(t, err, assess.ECodeIntegrity)
}

func TestKeyringNewVersion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	_, _, err := secret.NewKeyring(nil, nil).NewVersion(1, "admin", time.Now())
	require.Error(t, err, "passthrough has no master key to wrap a new version under")

	kr, master, ledger := newKeyring(t)
	kv, kek, err := kr.NewVersion(2, "admin", time.Now())
	require.NoError(t, err)
	require.Equal(t, 2, kv.Version)
	require.Equal(t, kek, mustUnwrap(t, master, kv), "the new version is wrapped under the keyring's master key")
	require.Equal(t, 1, kr.Current(), "a version is not used before the caller commits it and calls AddVersion")

	kr.AddVersion(kv.Version, kek)
	stored, err := kr.Seal(ctx, aadJWT, []byte("s3cr3t"))
	require.NoError(t, err)
	ledger[0].Current = false
	restarted := secret.NewKeyring(master, append(ledger, kv))
	got, err := restarted.Open(ctx, aadJWT, stored)
	require.NoError(t, err)
	require.Equal(t, []byte("s3cr3t"), got)
}
