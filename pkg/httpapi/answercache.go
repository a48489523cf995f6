package httpapi

import (
	"bytes"
	"compress/gzip"
	"container/list"
	"context"
	"sync"
)

// answerCache keeps encoded answers of reads whose revision says they are worth keeping
// (assess.Revision.Keep: published standards' trees, levels and requirements; assessment
// workspaces), keyed by what was read and the revision read, so an entry can never be
// served for another state: a change gives a new revision, hence a new key, and the old
// entry ages out. It is bounded by bytes (RESPONSE_CACHE_MAX_BYTES), the least recently
// used entries leaving first; an answer larger than a quarter of the bound is not kept, so
// that one huge tree cannot flush the rest. Concurrent requests for an answer that is not
// kept yet wait for the first one's (fill) instead of each reading it. Safe for concurrent
// use.
type answerCache struct {
	mu      sync.Mutex
	limit   int64
	size    int64
	order   *list.List               // of *encodedJSON, the most recently used first
	items   map[string]*list.Element // by key
	filling map[string]*fillCall     // by key: the reads in progress
}

// fillCall is a read in progress that concurrent requests for the same key wait for.
type fillCall struct {
	done chan struct{} // closed when e and err are set
	e    *encodedJSON
	err  error
}

// encodedJSON is one answer as it is sent: the JSON and, when it is worth compressing
// (gzipMinBytes and more), the same gzip-compressed once for every client that accepts it.
type encodedJSON struct {
	key  string
	json []byte
	gzip []byte
}

// entryOverhead approximates what an entry costs beyond its bytes (element, map slot,
// headers of the slices).
const entryOverhead = 200

// cost is what an entry counts against the bound.
func (e *encodedJSON) cost() int64 {
	return int64(len(e.key)+len(e.json)+len(e.gzip)) + entryOverhead
}

// newAnswerCache returns a cache of at most limit bytes; 0 or less keeps nothing.
func newAnswerCache(limit int64) *answerCache {
	return &answerCache{limit: limit, order: list.New(), items: map[string]*list.Element{}, filling: map[string]*fillCall{}}
}

// get returns the entry under key, marking it recently used.
func (c *answerCache) get(key string) (*encodedJSON, bool) {
	if c.limit <= 0 {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*encodedJSON), true
}

// fits tells whether an answer of n bytes may be kept at all.
func (c *answerCache) fits(n int) bool {
	return c.limit > 0 && int64(n)+entryOverhead <= c.limit/4
}

// put keeps e (replacing an entry under the same key) and evicts the least recently used
// entries beyond the bound. An entry that does not fit is not kept.
func (c *answerCache) put(e *encodedJSON) {
	if !c.fits(len(e.json) + len(e.gzip) + len(e.key)) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.items[e.key]; ok {
		c.size -= old.Value.(*encodedJSON).cost()
		c.order.Remove(old)
	}
	c.items[e.key] = c.order.PushFront(e)
	c.size += e.cost()
	for c.size > c.limit {
		last := c.order.Back()
		gone := last.Value.(*encodedJSON)
		c.order.Remove(last)
		delete(c.items, gone.key)
		c.size -= gone.cost()
	}
}

// fill returns the answer read returns for key, and keeps it. While one request reads it,
// the others asking for the same key wait for that answer: after a change, the first
// request of many reads the workspace or tree once for all. A waiter whose first request
// failed (its client went away, say) or whose own request ends first reads on its own.
func (c *answerCache) fill(ctx context.Context, key string, read func(context.Context) (*encodedJSON, error)) (*encodedJSON, error) {
	c.mu.Lock()
	if call, ok := c.filling[key]; ok {
		c.mu.Unlock()
		select {
		case <-call.done:
			if call.err == nil {
				return call.e, nil
			}
		case <-ctx.Done():
		}
		return read(ctx)
	}
	call := &fillCall{done: make(chan struct{})}
	c.filling[key] = call
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.filling, key)
		c.mu.Unlock()
		close(call.done)
	}()
	call.e, call.err = read(ctx)
	if call.err == nil {
		c.put(call.e)
	}
	return call.e, call.err
}

// stats returns the entries kept and the bytes they count.
func (c *answerCache) stats() (entries int, size int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len(), c.size
}

// compressed gzips an answer as compressJSON would (BestSpeed), for keeping; nil when it
// is too small to be worth it.
func compressed(data []byte) []byte {
	if len(data) < gzipMinBytes {
		return nil
	}
	var buf bytes.Buffer
	buf.Grow(len(data) / 4)
	gz := gzipWriters.Get().(*gzip.Writer)
	defer gzipWriters.Put(gz)
	gz.Reset(&buf)
	if _, err := gz.Write(data); err != nil {
		return nil
	}
	if err := gz.Close(); err != nil {
		return nil
	}
	return buf.Bytes()
}
