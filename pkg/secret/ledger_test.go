package secret_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/secret"
)

func TestNewKeyVersionUsesAFreshSaltAndKEK(t *testing.T) {
	t.Parallel()
	master := newMaster(t)
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

	a, kekA, err := secret.NewKeyVersion(master, 1, "alice", now)
	require.NoError(t, err)
	b, kekB, err := secret.NewKeyVersion(master, 1, "alice", now)
	require.NoError(t, err)

	require.Len(t, a.Salt, secret.KeySize)
	require.Len(t, kekA, secret.KeySize)
	require.NotEqual(t, a.Salt, b.Salt, "every version gets its own HKDF salt")
	require.NotEqual(t, a.WrappedKEK, b.WrappedKEK)
	require.NotEqual(t, kekA, kekB)
	require.NotContains(t, string(a.WrappedKEK), string(kekA), "the KEK is stored wrapped")
	require.Equal(t, 1, a.Version)
	require.Equal(t, "alice", a.CreatedBy)
	require.Equal(t, now, a.CreatedAt)
	require.True(t, a.Current)

	got, err := secret.UnwrapKEK(master, a)
	require.NoError(t, err)
	require.Equal(t, kekA, got)

	_, err = secret.UnwrapKEK(newMaster(t), a)
	require.ErrorIs(t, err, secret.ErrWrongMasterKey)
}

func TestUnwrapKEKRefusesAnAlteredLedgerRow(t *testing.T) {
	t.Parallel()
	master := newMaster(t)
	kv, _, err := secret.NewKeyVersion(master, 1, "alice", time.Now())
	require.NoError(t, err)
	other, _, err := secret.NewKeyVersion(master, 2, "alice", time.Now())
	require.NoError(t, err)

	flip := func(b []byte, i int) []byte {
		c := append([]byte(nil), b...)
		c[i] ^= 1
		return c
	}
	for name, altered := range map[string]secret.KeyVersion{
		"renumbered":          {Version: 2, Salt: kv.Salt, WrappedKEK: kv.WrappedKEK},
		"salt changed":        {Version: 1, Salt: flip(kv.Salt, 0), WrappedKEK: kv.WrappedKEK},
		"salt of another row": {Version: 1, Salt: other.Salt, WrappedKEK: kv.WrappedKEK},
		"wrapped KEK changed": {Version: 1, Salt: kv.Salt, WrappedKEK: flip(kv.WrappedKEK, len(kv.WrappedKEK)-1)},
		"wrapped KEK cut":     {Version: 1, Salt: kv.Salt, WrappedKEK: kv.WrappedKEK[:20]},
		"wrapped KEK missing": {Version: 1, Salt: kv.Salt},
		"another row's KEK":   {Version: 1, Salt: kv.Salt, WrappedKEK: other.WrappedKEK},
		"salt missing":        {Version: 1, WrappedKEK: kv.WrappedKEK},
	} {
		_, err := secret.UnwrapKEK(master, altered)
		require.ErrorIs(t, err, secret.ErrWrongMasterKey, name)
	}
}

func TestMasterKeyMustBe256Bits(t *testing.T) {
	t.Parallel()
	for _, size := range []int{0, 16, 31, 33, 64} {
		_, _, err := secret.NewKeyVersion(make([]byte, size), 1, "alice", time.Now())
		require.Error(t, err, "master key of %d bytes", size)
	}
}

func TestRewrapKEKMovesTheLedgerToANewMasterKey(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	oldMaster, newMasterKey := newMaster(t), newMaster(t)
	ledger := newLedger(t, oldMaster, 3)
	kr := secret.NewKeyring(oldMaster, ledger)

	// Values sealed under every version before the rekey.
	sealed := map[string]string{}
	for i := range 3 {
		kr.AddVersion(i+1, mustUnwrap(t, oldMaster, ledger[i]))
		aad := "webhooks/secret/wh_" + string(rune('a'+i))
		stored, err := kr.Seal(ctx, aad, []byte("secret "+aad))
		require.NoError(t, err)
		sealed[aad] = stored
	}

	rekeyed := make([]secret.KeyVersion, len(ledger))
	for i, kv := range ledger {
		out, err := secret.RewrapKEK(oldMaster, newMasterKey, kv)
		require.NoError(t, err)
		require.Equal(t, kv.Version, out.Version)
		require.Equal(t, kv.CreatedAt, out.CreatedAt)
		require.Equal(t, kv.CreatedBy, out.CreatedBy)
		require.Equal(t, kv.Current, out.Current)
		require.NotEqual(t, kv.Salt, out.Salt, "a rekey draws a fresh salt")
		require.NotEqual(t, kv.WrappedKEK, out.WrappedKEK)
		require.Equal(t, mustUnwrap(t, oldMaster, kv), mustUnwrap(t, newMasterKey, out), "the KEK itself is unchanged")
		_, err = secret.UnwrapKEK(oldMaster, out)
		require.ErrorIs(t, err, secret.ErrWrongMasterKey, "after the rekey the old master key is not needed, nor useful")
		rekeyed[i] = out
	}

	// Only the new master key is needed afterwards; no data value was touched.
	after := secret.NewKeyring(newMasterKey, rekeyed)
	require.Empty(t, after.Unusable())
	require.Equal(t, 3, after.Current())
	for aad, stored := range sealed {
		got, err := after.Open(ctx, aad, stored)
		require.NoError(t, err)
		require.Equal(t, "secret "+aad, string(got))
	}
	stale := secret.NewKeyring(oldMaster, rekeyed)
	require.Equal(t, []int{1, 2, 3}, stale.Unusable())

	// The old key must open the ledger, or nothing is rewritten.
	_, err := secret.RewrapKEK(newMaster(t), newMasterKey, ledger[0])
	require.ErrorIs(t, err, secret.ErrWrongMasterKey)
	_, err = secret.RewrapKEK(newMasterKey, newMasterKey, ledger[0])
	require.ErrorIs(t, err, secret.ErrWrongMasterKey)
}

func mustUnwrap(tb testing.TB, master []byte, kv secret.KeyVersion) []byte {
	tb.Helper()
	kek, err := secret.UnwrapKEK(master, kv)
	require.NoError(tb, err)
	return kek
}
