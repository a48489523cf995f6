package secret_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/secret"
)

// The tests of this file are about several replicas sharing one key ledger.

func TestUnknownVersionReloadsTheLedger(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	master := newMaster(t)
	v1, _, err := secret.NewKeyVersion(master, 1, "test", time.Now())
	require.NoError(t, err)
	v7, _, err := secret.NewKeyVersion(master, 7, "other replica", time.Now())
	require.NoError(t, err)
	v1old := v1
	v1old.Current = false
	rotated := []secret.KeyVersion{v1old, v7}

	// Another replica rotated to version 7 and sealed a value under it.
	stored, err := secret.NewKeyring(master, rotated).Seal(ctx, aadJWT, []byte("s3cr3t"))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(stored, secret.Prefix+"7$"))

	v7other, _, err := secret.NewKeyVersion(newMaster(t), 7, "other installation", time.Now())
	require.NoError(t, err)

	for _, tc := range []struct {
		name     string
		reloaded []secret.KeyVersion
		reload   error
		opens    bool
	}{
		{name: "ledger has the version", reloaded: rotated, opens: true},
		{name: "ledger lacks the version", reloaded: []secret.KeyVersion{v1}},
		{name: "version made with another master", reloaded: []secret.KeyVersion{v1old, v7other}},
		{name: "reload fails", reload: errors.New("database unreachable")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var audit auditRecorder
			var reloads atomic.Int32
			kr := secret.NewKeyring(master, []secret.KeyVersion{v1})
			kr.OnUnavailable = audit.record
			kr.Reload = func(context.Context) ([]secret.KeyVersion, error) {
				reloads.Add(1)
				return tc.reloaded, tc.reload
			}
			require.Equal(t, 1, kr.Current())

			got, err := kr.Open(ctx, aadJWT, stored)
			require.Equal(t, int32(1), reloads.Load(), "Open reloads the ledger exactly once")
			if !tc.opens {
				requireCode(t, err, assess.ECodeKeyUnavailable)
				require.Equal(t, []unavailableCall{{7, aadJWT}}, audit.all())
				return
			}
			require.NoError(t, err)
			require.Equal(t, []byte("s3cr3t"), got)
			require.Empty(t, audit.all())

			// Having learnt version 7, the replica opens further values without reloading,
			// and seals under the version the ledger marks current.
			_, err = kr.Open(ctx, aadJWT, stored)
			require.NoError(t, err)
			require.Equal(t, int32(1), reloads.Load())
			require.Equal(t, 7, kr.Current())
		})
	}
}

// TestConcurrentUseDuringRotation is meant for -race: sealing and opening on one replica
// while it rotates, and on a second replica that learns each version by reloading.
func TestConcurrentUseDuringRotation(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	master := newMaster(t)
	first := newLedger(t, master, 1)

	var ledgerMu sync.Mutex
	ledger := append([]secret.KeyVersion(nil), first...)
	reload := func(context.Context) ([]secret.KeyVersion, error) {
		ledgerMu.Lock()
		defer ledgerMu.Unlock()
		return append([]secret.KeyVersion(nil), ledger...), nil
	}
	rotating := secret.NewKeyring(master, first)
	rotating.Reload = reload
	other := secret.NewKeyring(master, first)
	other.Reload = reload
	var unavailable atomic.Int32
	other.OnUnavailable = func(context.Context, int, string) { unavailable.Add(1) }

	const workers, rounds, versions = 8, 100, 20
	var wg sync.WaitGroup
	wg.Go(func() {
		for v := 2; v <= versions; v++ {
			kv, kek, err := secret.NewKeyVersion(master, v, "rotator", time.Now())
			if err != nil {
				t.Error(err)
				return
			}
			// The ledger row is committed before the process uses the version.
			ledgerMu.Lock()
			for i := range ledger {
				ledger[i].Current = false
			}
			ledger = append(ledger, kv)
			ledgerMu.Unlock()
			rotating.AddVersion(v, kek)
		}
	})
	for w := range workers {
		wg.Go(func() {
			for i := range rounds {
				aad := fmt.Sprintf("webhooks/secret/wh_%d_%d", w, i)
				want := fmt.Sprintf("secret %d/%d", w, i)
				sealer, opener := rotating, other
				if i%2 == 1 {
					sealer, opener = other, rotating
				}
				stored, err := sealer.Seal(ctx, aad, []byte(want))
				if err != nil {
					t.Errorf("seal %s: %v", aad, err)
					return
				}
				for _, k := range []*secret.Keyring{sealer, opener} {
					got, err := k.Open(ctx, aad, stored)
					if err != nil || string(got) != want {
						t.Errorf("open %s: %q, %v", aad, got, err)
						return
					}
				}
				_ = rotating.Current()
				_ = other.Unusable()
			}
		})
	}
	wg.Wait()
	require.Zero(t, unavailable.Load())
	for _, k := range []*secret.Keyring{rotating, other} {
		require.Empty(t, k.Unusable())
		require.NotZero(t, k.Current())
	}
}

// TestReloadDoesNotUndoANewerVersion: a reload that read the ledger just before this
// process rotated must not take the new version away again, or the replica goes back to
// sealing new values under the old version.
func TestReloadDoesNotUndoANewerVersion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	master := newMaster(t)
	ledgerV1 := newLedger(t, master, 1)
	kr := secret.NewKeyring(master, ledgerV1)
	_, kek2, err := secret.NewKeyVersion(master, 2, "admin", time.Now())
	require.NoError(t, err)
	kr.Reload = func(context.Context) ([]secret.KeyVersion, error) {
		snapshot := ledgerV1
		kr.AddVersion(2, kek2) // the rotation commits and lands between read and load
		return snapshot, nil
	}

	_, err = kr.Open(ctx, aadJWT, secret.Prefix+"3$"+strings.Repeat("A", 80)+"$"+strings.Repeat("A", 40))
	requireCode(t, err, assess.ECodeKeyUnavailable)

	require.Equal(t, 2, kr.Current(), "the stale reload moved the current version back")
	stored, err := kr.Seal(ctx, aadJWT, []byte("s3cr3t"))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(stored, secret.Prefix+"2$"), "sealed as %.16s…", stored)
}

// TestReloadKeepsKeysItAlreadyHas: after a master rekey, a replica not yet restarted still
// holds the old master key. When it reloads the ledger (because a rotation made after the
// rekey wrote a value under a version it does not know), it must not forget the versions
// it had already unwrapped, or it stops reading and writing every secret.
func TestReloadKeepsKeysItAlreadyHas(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	oldMaster, newMasterKey := newMaster(t), newMaster(t)
	ledger := newLedger(t, oldMaster, 1)
	replica := secret.NewKeyring(oldMaster, ledger)
	before, err := replica.Seal(ctx, aadJWT, []byte("s3cr3t"))
	require.NoError(t, err)

	// Rekey, then a rotation by a replica already running with the new key.
	v1, err := secret.RewrapKEK(oldMaster, newMasterKey, ledger[0])
	require.NoError(t, err)
	v1.Current = false
	v2, _, err := secret.NewKeyVersion(newMasterKey, 2, "admin", time.Now())
	require.NoError(t, err)
	rekeyed := []secret.KeyVersion{v1, v2}
	rotated, err := secret.NewKeyring(newMasterKey, rekeyed).Seal(ctx, "webhooks/secret/wh_1", []byte("whsec"))
	require.NoError(t, err)
	replica.Reload = func(context.Context) ([]secret.KeyVersion, error) { return rekeyed, nil }

	_, err = replica.Open(ctx, "webhooks/secret/wh_1", rotated)
	requireCode(t, err, assess.ECodeKeyUnavailable) // expected: it has the old master key

	got, err := replica.Open(ctx, aadJWT, before)
	require.NoError(t, err, "the replica forgot KEK version 1 it had unwrapped at start-up")
	require.Equal(t, []byte("s3cr3t"), got)
	_, err = replica.Seal(ctx, aadJWT, []byte("new"))
	require.NoError(t, err, "the replica can no longer store secrets")
}
