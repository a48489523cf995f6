package work

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestAnswerCacheComputesOncePerKeyAndTTL: concurrent requests for one key share one
// computation, another key is its own, an answer is served again until the TTL passes, a
// failure is not kept, a caller whose context ends stops waiting, and the bound holds.
func TestAnswerCacheComputesOncePerKeyAndTTL(t *testing.T) {
	ctx := context.Background()
	c := newAnswerCache[int](50*time.Millisecond, 3)
	var calls atomic.Int32
	release := make(chan struct{})
	slow := func(context.Context) (int, error) { calls.Add(1); <-release; return 7, nil }
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			v, err := c.get(ctx, "a", slow)
			require.NoError(t, err)
			require.Equal(t, 7, v)
		})
	}
	time.Sleep(20 * time.Millisecond)
	close(release)
	wg.Wait()
	require.EqualValues(t, 1, calls.Load(), "eight concurrent requests, one computation")

	v, err := c.get(ctx, "a", func(context.Context) (int, error) { return 8, nil })
	require.NoError(t, err)
	require.Equal(t, 7, v, "kept within the TTL")
	v, _ = c.get(ctx, "b", func(context.Context) (int, error) { return 9, nil })
	require.Equal(t, 9, v, "another key")
	time.Sleep(60 * time.Millisecond)
	v, _ = c.get(ctx, "a", func(context.Context) (int, error) { return 8, nil })
	require.Equal(t, 8, v, "computed again after the TTL")

	_, err = c.get(ctx, "e", func(context.Context) (int, error) { return 0, errors.New("down") })
	require.Error(t, err)
	v, err = c.get(ctx, "e", func(context.Context) (int, error) { return 1, nil })
	require.NoError(t, err)
	require.Equal(t, 1, v, "a failure is not kept")

	block := make(chan struct{})
	go func() { _, _ = c.get(ctx, "w", func(context.Context) (int, error) { <-block; return 2, nil }) }()
	time.Sleep(10 * time.Millisecond)
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, err = c.get(cancelled, "w", func(context.Context) (int, error) { return 3, nil })
	require.ErrorIs(t, err, context.Canceled, "a waiter whose request ends stops waiting")
	close(block)

	for _, k := range []string{"x", "y", "z", "q"} {
		_, _ = c.get(ctx, k, func(context.Context) (int, error) { return 0, nil })
	}
	c.mu.Lock()
	require.LessOrEqual(t, len(c.entries), 3, "bounded")
	c.mu.Unlock()

	off := newAnswerCache[int](-1, 3)
	calls.Store(0)
	for range 3 {
		_, _ = off.get(ctx, "a", func(context.Context) (int, error) { calls.Add(1); return 0, nil })
	}
	require.EqualValues(t, 3, calls.Load(), "a negative TTL keeps nothing")
}
