package postgres

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

func TestCredentialCacheEntries(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	c := newCredentialCache(time.Minute, func() time.Time { return now })
	alice := &assess.Principal{User: assess.User{ID: "u_alice"}, SessionID: "se_1"}
	bob := &assess.Principal{User: assess.User{ID: "u_bob"}, APIKeyID: "ak_1"}

	_, _, gen, ok := c.Get("s:se_1")
	require.False(t, ok)
	c.Put("s:se_1", gen, alice, time.Time{}, time.Time{})
	_, _, _, ok = c.Get("s:se_1")
	require.False(t, ok, "nothing is cached while the listener is not connected")

	c.setEnabled(true)
	_, _, gen, _ = c.Get("s:se_1")
	c.Put("s:se_1", gen, alice, time.Time{}, time.Time{})
	c.Put("k:bob", gen, bob, now.Add(10*time.Second), time.Time{})
	got, _, _, ok := c.Get("s:se_1")
	require.True(t, ok)
	require.Equal(t, "u_alice", got.User.ID)

	t.Run("a put after an invalidation is dropped", func(t *testing.T) {
		_, _, stale, _ := c.Get("s:other")
		c.invalidate(UserCredentials("u_nobody"))
		c.Put("s:other", stale, alice, time.Time{}, time.Time{})
		_, _, _, ok := c.Get("s:other")
		require.False(t, ok)
	})
	t.Run("entries expire with their credential", func(t *testing.T) {
		now = now.Add(11 * time.Second)
		_, _, _, ok := c.Get("k:bob")
		require.False(t, ok, "the key expired before the TTL")
		_, _, _, ok = c.Get("s:se_1")
		require.True(t, ok)
	})
	t.Run("invalidations name users, sessions, keys or everything", func(t *testing.T) {
		for _, k := range []string{UserCredentials("u_alice"), SessionCredential("se_1"), RoleCredentials()} {
			_, _, gen, _ := c.Get("s:se_1")
			c.Put("s:se_1", gen, alice, time.Time{}, time.Time{})
			c.invalidate(k)
			_, _, _, ok := c.Get("s:se_1")
			require.False(t, ok, k)
		}
		_, _, gen, _ := c.Get("k:bob")
		c.Put("k:bob", gen, bob, time.Time{}, time.Time{})
		c.invalidate(APIKeyCredential("ak_1"))
		_, _, _, ok := c.Get("k:bob")
		require.False(t, ok)
	})
}

// TestListenedEntriesAreSwept: expired entries leave the map at the first fill a lifetime
// after the last sweep, so a long-running replica does not keep every session, key or
// user it has seen.
func TestListenedEntriesAreSwept(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	c := newListened[int](time.Minute, func() time.Time { return now })
	c.setEnabled(true)
	for i := range 100 {
		key := fmt.Sprint(i)
		_, gen, _ := c.Get(key)
		c.Put(key, gen, i, time.Time{})
	}
	require.Equal(t, 100, c.size())
	now = now.Add(30 * time.Second)
	_, gen, _ := c.Get("late")
	c.Put("late", gen, 1, time.Time{})
	require.Equal(t, 101, c.size(), "nothing has expired yet")
	now = now.Add(45 * time.Second)
	_, gen, ok := c.Get("0")
	require.False(t, ok, "expired")
	c.Put("0", gen, 0, time.Time{})
	require.Equal(t, 2, c.size(), "the expired entries are swept; the one still alive stays")
}
