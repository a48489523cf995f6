package postgres

import (
	"sync"
	"time"
)

// listened holds the entries of a cache that ListenChanges keeps current: the credential
// cache (credcache.go) and the unread-count cache (unreadcache.go). Entries serve only
// while the listener is connected. A generation lets a fill lose against any invalidation
// that happened since its read began, since the value read may already be stale. Expired
// entries are swept about once per lifetime, so the map does not keep every session, key
// or user the replica has ever seen.
type listened[V any] struct {
	ttl time.Duration // 0: nothing is cached
	now func() time.Time

	mu      sync.Mutex
	enabled bool
	gen     uint64
	entries map[string]listenedEntry[V]
	swept   time.Time
}

type listenedEntry[V any] struct {
	v       V
	expires time.Time
}

func newListened[V any](ttl time.Duration, now func() time.Time) *listened[V] {
	return &listened[V]{ttl: ttl, now: now, entries: map[string]listenedEntry[V]{}}
}

// Get returns the value cached under key, and the generation to pass to put after a miss.
func (c *listened[V]) Get(key string) (V, uint64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok || !c.enabled || !c.now().Before(e.expires) {
		var zero V
		return zero, c.gen, false
	}
	return e.v, c.gen, true
}

// Put caches v under key until validUntil (zero: none) or the lifetime, whichever is
// sooner, unless an invalidation happened since gen was read.
func (c *listened[V]) Put(key string, gen uint64, v V, validUntil time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.enabled || c.ttl <= 0 || gen != c.gen {
		return
	}
	now := c.now()
	if now.Sub(c.swept) >= c.ttl {
		for k, e := range c.entries {
			if !now.Before(e.expires) {
				delete(c.entries, k)
			}
		}
		c.swept = now
	}
	expires := now.Add(c.ttl)
	if !validUntil.IsZero() && validUntil.Before(expires) {
		expires = validUntil
	}
	c.entries[key] = listenedEntry[V]{v: v, expires: expires}
}

// update changes the value cached under key in place, if there is one.
func (c *listened[V]) update(key string, fn func(*V)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[key]; ok {
		fn(&e.v)
		c.entries[key] = e
	}
}

// drop removes the entries under keys and, when match is not nil, those it selects; either
// way it starts a new generation, so fills read before it are not kept.
func (c *listened[V]) drop(keys []string, match func(V) bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	for _, k := range keys {
		delete(c.entries, k)
	}
	if match != nil {
		for k, e := range c.entries {
			if match(e.v) {
				delete(c.entries, k)
			}
		}
	}
}

// setEnabled switches the cache on (listener connected) or off; either way it starts empty.
func (c *listened[V]) setEnabled(on bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.enabled = on
	c.gen++
	clear(c.entries)
}

// isEnabled reports whether the cache serves.
func (c *listened[V]) isEnabled() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.enabled
}

// size is the number of entries held, expired ones included until they are swept.
func (c *listened[V]) size() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}
