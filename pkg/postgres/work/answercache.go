package work

import (
	"context"
	"sync"
	"time"
)

// answerCache keeps computed answers for a while, by key: an answer younger than ttl is served
// again, and concurrent requests for an answer being computed wait for that one computation
// instead of starting their own. The dashboard and the search use it: both are costly to
// compute at scale, are asked again and again with the same key (a page reload, a search box
// typed by many people), and may be a few seconds old. A failed computation is not kept.
type answerCache[T any] struct {
	ttl     time.Duration
	max     int
	mu      sync.Mutex
	entries map[string]*answerEntry[T]
}

type answerEntry[T any] struct {
	done chan struct{} // closed when val and err are set
	at   time.Time
	val  T
	err  error
}

// newAnswerCache keeps answers for ttl (negative: none is kept), at most max of them: beyond
// it, the expired ones are dropped, and if that is not enough, all.
func newAnswerCache[T any](ttl time.Duration, max int) *answerCache[T] {
	return &answerCache[T]{ttl: ttl, max: max, entries: map[string]*answerEntry[T]{}}
}

// get answers the kept answer of key, or computes it. The computation is not cancelled with
// ctx (others may be waiting for it); a caller whose ctx ends stops waiting.
func (c *answerCache[T]) get(ctx context.Context, key string, compute func(context.Context) (T, error)) (T, error) {
	if c.ttl < 0 {
		return compute(ctx)
	}
	now := time.Now()
	c.mu.Lock()
	e, ok := c.entries[key]
	if ok {
		select {
		case <-e.done:
			if e.err != nil || now.Sub(e.at) >= c.ttl {
				ok = false
			}
		default: // being computed: wait for it below
		}
	}
	if !ok {
		if len(c.entries) >= c.max {
			c.evict(now)
		}
		e = &answerEntry[T]{done: make(chan struct{})}
		c.entries[key] = e
		c.mu.Unlock()
		e.val, e.err = compute(context.WithoutCancel(ctx))
		e.at = time.Now()
		close(e.done)
		return e.val, e.err
	}
	c.mu.Unlock()
	select {
	case <-e.done:
		return e.val, e.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

// evict drops the expired answers, or all of them when that is not enough (under mu).
func (c *answerCache[T]) evict(now time.Time) {
	for k, e := range c.entries {
		select {
		case <-e.done:
			if now.Sub(e.at) >= c.ttl {
				delete(c.entries, k)
			}
		default:
		}
	}
	if len(c.entries) >= c.max {
		clear(c.entries)
	}
}
