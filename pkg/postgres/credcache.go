package postgres

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

// Credentials (a session id, an API key) resolve to a principal — the user, their roles
// and permissions — on every request. The cache keeps resolved principals in memory for a
// short time, and every change that could alter one invalidates it at once: on the server
// that made the change right after its commit, and on every other replica through
// PostgreSQL LISTEN/NOTIFY (the notification is sent inside the change's transaction, so
// it is delivered exactly when the change commits). While a replica's listening
// connection is down it does not use the cache at all, and it flushes the cache when the
// connection comes back, so a missed notification can never keep a revoked credential
// alive.

// credentialChannel is the NOTIFY channel of credential invalidations.
const credentialChannel = "assay_credentials"

// Invalidation keys: what a change affects.
func UserCredentials(userID string) string { return "user:" + userID }
func SessionCredential(id string) string   { return "session:" + id }
func APIKeyCredential(id string) string    { return "apikey:" + id }
func RoleCredentials() string              { return "all" } // a role's permissions reach many users
func TokenCacheKey(token string) string {
	sum := sha256.Sum256([]byte(token))
	return "k:" + hex.EncodeToString(sum[:])
}
func SessionCacheKey(sessionID string) string { return "s:" + sessionID }

// credentialCache is the in-memory cache of resolved principals (listened.go: it serves
// only while the listener is connected; a fill loses against an invalidation since its
// read began).
type credentialCache struct {
	entries *listened[cachedPrincipal]
}

type cachedPrincipal struct {
	p       assess.Principal
	Touched time.Time // API keys: when last_used_at was last written
}

func newCredentialCache(ttl time.Duration, now func() time.Time) *credentialCache {
	return &credentialCache{entries: newListened[cachedPrincipal](ttl, now)}
}

// Get returns a copy of the cached principal of key, and the generation to pass to put
// after a miss.
func (c *credentialCache) Get(key string) (*assess.Principal, cachedPrincipal, uint64, bool) {
	if c == nil {
		return nil, cachedPrincipal{}, 0, false
	}
	e, gen, ok := c.entries.Get(key)
	if !ok {
		return nil, cachedPrincipal{}, gen, false
	}
	p := e.p
	return &p, e, gen, true
}

// Put caches p under key until validUntil (or the TTL, whichever is sooner), unless an
// invalidation happened since gen was read: the principal may already be stale.
func (c *credentialCache) Put(key string, gen uint64, p *assess.Principal, validUntil, touched time.Time) {
	if c == nil {
		return
	}
	c.entries.Put(key, gen, cachedPrincipal{p: *p, Touched: touched}, validUntil)
}

// Touch records that an API key's last use was written at t.
func (c *credentialCache) Touch(key string, t time.Time) {
	if c == nil {
		return
	}
	c.entries.update(key, func(e *cachedPrincipal) { e.Touched = t })
}

// invalidate drops the entries the invalidation keys name.
func (c *credentialCache) invalidate(keys ...string) {
	if c == nil {
		return
	}
	type named struct{ kind, id string }
	names := make([]named, len(keys))
	for i, k := range keys {
		names[i].kind, names[i].id, _ = strings.Cut(k, ":")
	}
	c.entries.drop(nil, func(e cachedPrincipal) bool {
		for _, n := range names {
			if n.kind == "all" || n.kind == "user" && e.p.User.ID == n.id || n.kind == "session" && e.p.SessionID == n.id ||
				n.kind == "apikey" && e.p.APIKeyID == n.id {
				return true
			}
		}
		return false
	})
}

// setEnabled switches the cache on (listener connected) or off (disconnected); either way
// it starts empty.
func (c *credentialCache) setEnabled(on bool) { c.entries.setEnabled(on) }

// Invalidate sends an invalidation to every replica, delivered when the transaction
// commits, and to this server's cache right after the commit.
func (tx *Tx) Invalidate(ctx context.Context, key string) error {
	if _, err := tx.Exec(ctx, "SELECT pg_notify($1, $2)", credentialChannel, key); err != nil {
		return err
	}
	tx.After.invalidations = append(tx.After.invalidations, key)
	return nil
}

// WithCredentialCache turns on the credential cache with entries living at most ttl; it
// serves only while ListenChanges is connected.
func (db *DB) WithCredentialCache(ttl time.Duration) *DB {
	if ttl > 0 {
		db.Creds = newCredentialCache(ttl, db.Now)
	}
	return db
}

// ListenChanges runs until ctx ends: it announces this replica's changed unread counts to
// the others (unreadcache.go) and, when a cache is on, keeps a connection listening for
// the other replicas' invalidations, reconnecting with a back-off; the caches serve only
// while it is connected.
func (db *DB) ListenChanges(ctx context.Context, log *slog.Logger) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		db.announceLoop(ctx)
	}()
	defer func() { <-done }()
	if db.Creds == nil && db.Unread.Counts.ttl <= 0 {
		<-ctx.Done()
		return
	}
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		err := db.listenOnce(ctx)
		db.setCachesEnabled(false)
		if ctx.Err() != nil {
			return
		}
		log.WarnContext(ctx, "caches off: invalidation listener disconnected", slog.String("error", err.Error()))
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, 5*time.Second)
	}
}

func (db *DB) listenOnce(ctx context.Context) error {
	conn, err := pgx.ConnectConfig(ctx, db.Pool.Config().ConnConfig.Copy())
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	// The credential channel last: the statement a session shows is its last one.
	if _, err := conn.Exec(ctx, "LISTEN "+unreadChannel); err != nil {
		return err
	}
	if _, err := conn.Exec(ctx, "LISTEN "+credentialChannel); err != nil {
		return err
	}
	db.setCachesEnabled(true)
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		if n.Channel == unreadChannel {
			db.Unread.receive(n.Payload)
		} else {
			db.Creds.invalidate(n.Payload)
		}
	}
}

// setCachesEnabled switches the credential and unread-count caches on or off, empty.
func (db *DB) setCachesEnabled(on bool) {
	if db.Creds != nil {
		db.Creds.setEnabled(on)
	}
	db.Unread.Counts.setEnabled(on)
}
