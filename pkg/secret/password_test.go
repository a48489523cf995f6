package secret

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// fast keeps the tests quick; the production cost is DefaultArgon2.
var fast = Argon2Params{MemoryKiB: 64, Time: 1, Threads: 1}

func TestPasswordHashAndVerify(t *testing.T) {
	t.Parallel()
	h := NewHasher(fast, 2)
	ctx := context.Background()
	hash, err := h.Hash(ctx, "correct horse battery staple")
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(hash, "$argon2id$v=19$m=64,t=1,p=1$"))
	again, err := h.Hash(ctx, "correct horse battery staple")
	require.NoError(t, err)
	require.NotEqual(t, hash, again, "salted")

	ok, err := h.Verify(ctx, "correct horse battery staple", hash)
	require.NoError(t, err)
	require.True(t, ok)
	ok, err = h.Verify(ctx, "correct horse battery stapl", hash)
	require.NoError(t, err)
	require.False(t, ok)

	// A hash made with other parameters still verifies: the cost travels with the hash.
	other := NewHasher(DefaultArgon2, 1)
	ok, err = other.Verify(ctx, "correct horse battery staple", hash)
	require.NoError(t, err)
	require.True(t, ok)

	for _, bad := range []string{"", "plain", "$argon2i$v=19$m=64,t=1,p=1$c2FsdA$a2V5", "$argon2id$v=19$m=99999999,t=1,p=1$c2FsdA$a2V5"} {
		_, err := h.Verify(ctx, "x", bad)
		require.ErrorIs(t, err, ErrMalformedHash, bad)
	}
}

func TestDummyHashIsWellFormed(t *testing.T) {
	t.Parallel()
	ok, err := NewHasher(DefaultArgon2, 1).Verify(context.Background(), "anything", dummyHash)
	require.NoError(t, err)
	require.False(t, ok)
}

func TestHasherBoundsConcurrency(t *testing.T) {
	t.Parallel()
	h := NewHasher(Argon2Params{MemoryKiB: 1024, Time: 1, Threads: 1}, 2)
	// Occupy both slots and check a third caller waits and honours its context.
	require.NoError(t, h.acquire(context.Background()))
	require.NoError(t, h.acquire(context.Background()))
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := h.Hash(ctx, "pw")
	require.ErrorIs(t, err, context.DeadlineExceeded)
	h.release()
	h.release()

	var running, peak atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			require.NoError(t, h.acquire(context.Background()))
			n := running.Add(1)
			for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
			}
			time.Sleep(5 * time.Millisecond)
			running.Add(-1)
			h.release()
		}()
	}
	wg.Wait()
	require.LessOrEqual(t, peak.Load(), int32(2))
}
