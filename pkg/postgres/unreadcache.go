package postgres

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"time"
)

// Every open page of the web app asks for its user's unread-notification count, again
// and again, while the count changes only when a notification reaches the user or the
// user reads one. A replica keeps each user's count in memory (UNREAD_COUNT_CACHE_TTL)
// and drops it whenever it may have changed:
//
//   - on the replica that made the change, right after the commit (a change that notifies
//     users — its fan-out — or marks notifications read), so that replica answers exactly;
//   - on every other replica through PostgreSQL LISTEN/NOTIFY. Unlike the credential
//     invalidations, these are not sent inside the change's transaction: nearly every
//     change notifies someone, and a transaction that sends a notification holds a
//     cluster-wide lock through its commit, so notifying commits would no longer share
//     WAL flushes. The replica announces the users after the commit instead, batched:
//     other replicas see a new count within tens of milliseconds. A process without the
//     batching loop (the worker, assay-ctl) announces right after each commit.
//
// As with credentials, a replica whose listening connection is down does not use the
// cache, and flushes it when the connection comes back. The lifetime bounds what a lost
// announcement (a process ending between its commit and the announcement) can cost:
// another replica's count that lags by at most the TTL.

// unreadChannel is the NOTIFY channel of changed unread counts; the payload is the
// announcing replica's origin tag, a colon, and user ids separated by commas. A replica
// skips its own announcements: it dropped those counts at its commits already.
const unreadChannel = "assay_unread"

// unreadPayloadMax keeps one announcement under PostgreSQL's 8000-byte payload limit.
const unreadPayloadMax = 7000

// unreadAnnounceEvery is the least time between two batched announcements of a replica.
const unreadAnnounceEvery = 20 * time.Millisecond

// unreadCache is a replica's cache of unread counts (listened.go), and its queue of users
// to announce.
type unreadCache struct {
	Counts *listened[int]
	origin string // this replica's tag in its announcements

	mu      sync.Mutex          // guards the queue
	pending map[string]struct{} // users to announce to the other replicas
	looping bool                // announceLoop runs and sends pending
	wake    chan struct{}
}

func newUnreadCache(ttl time.Duration, now func() time.Time) *unreadCache {
	return &unreadCache{Counts: newListened[int](ttl, now), origin: fmt.Sprintf("%016x", rand.Uint64()),
		pending: map[string]struct{}{}, wake: make(chan struct{}, 1)}
}

// changed is called after a commit that changed the unread counts of users: it drops
// them here and queues them for the other replicas. It reports false when no loop will
// announce them: the caller announces them itself.
func (c *unreadCache) changed(userIDs []string) bool {
	c.Counts.drop(userIDs, nil)
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.looping {
		return false
	}
	for _, id := range userIDs {
		c.pending[id] = struct{}{}
	}
	select {
	case c.wake <- struct{}{}:
	default:
	}
	return true
}

// take empties the queue of users to announce.
func (c *unreadCache) take() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	ids := make([]string, 0, len(c.pending))
	for id := range c.pending {
		ids = append(ids, id)
	}
	clear(c.pending)
	return ids
}

// requeue puts back users whose announcement failed.
func (c *unreadCache) requeue(ids []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, id := range ids {
		c.pending[id] = struct{}{}
	}
}

func (c *unreadCache) setLooping(on bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.looping = on
}

// WithUnreadCountCache keeps unread-notification counts in memory for at most ttl
// (0: not at all); the cache serves only while ListenChanges is connected.
func (db *DB) WithUnreadCountCache(ttl time.Duration) *DB {
	db.Unread.Counts.ttl = ttl
	return db
}

// unreadChanged drops the users' cached counts after a commit and announces them to the
// other replicas: through the batching loop when it runs, else at once (best effort: a
// failed announcement costs the other replicas at most the cache's lifetime).
func (db *DB) unreadChanged(ctx context.Context, userIDs []string) {
	if len(userIDs) == 0 || db.Unread.changed(userIDs) {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	_ = db.announceUnread(ctx, userIDs)
}

// announceUnread sends the users to every replica's listener, in payloads under the limit.
func (db *DB) announceUnread(ctx context.Context, userIDs []string) error {
	for len(userIDs) > 0 {
		n, size := 1, len(db.Unread.origin)+1+len(userIDs[0])
		for ; n < len(userIDs) && size+1+len(userIDs[n]) <= unreadPayloadMax; n++ {
			size += 1 + len(userIDs[n])
		}
		payload := db.Unread.origin + ":" + strings.Join(userIDs[:n], ",")
		if _, err := db.Pool.Exec(ctx, "SELECT pg_notify($1, $2)", unreadChannel, payload); err != nil {
			return err
		}
		userIDs = userIDs[n:]
	}
	return nil
}

// announceLoop sends this replica's queued users to the other replicas, at most every
// unreadAnnounceEvery, until ctx ends; then it sends what is left and hands announcing
// back to the committing callers.
func (db *DB) announceLoop(ctx context.Context) {
	c := db.Unread
	c.setLooping(true)
	defer func() {
		c.setLooping(false)
		if ids := c.take(); len(ids) > 0 {
			ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
			defer cancel()
			_ = db.announceUnread(ctx, ids)
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return
		case <-c.wake:
		}
		pause := unreadAnnounceEvery
		if ids := c.take(); len(ids) > 0 {
			if err := db.announceUnread(ctx, ids); err != nil {
				c.requeue(ids) // and try again in a second
				pause = time.Second
				select {
				case c.wake <- struct{}{}:
				default:
				}
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(pause):
		}
	}
}

// receive handles an announcement from a replica.
func (c *unreadCache) receive(payload string) {
	origin, ids, _ := strings.Cut(payload, ":")
	if origin != c.origin {
		c.Counts.drop(strings.Split(ids, ","), nil)
	}
}
