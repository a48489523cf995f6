package postgres

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/assay-dev/assay/pkg/assess"
)

// Querier is what pool, connection and transaction have in common.
type Querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Tx is one change in progress: the database transaction, the time of the change (one
// clock reading for every row it writes), and who is making it. Store methods get one from
// DB.change and compose unexported (ctx, tx, …) helpers on it.
type Tx struct {
	pgx.Tx
	DB *DB
	// Now is the time of the change, read once from the store's clock.
	Now time.Time
	// Actor is the caller: recorded in the audit log and events, and asked for permissions.
	Actor assess.Actor

	After *afterCommit // shared with the copies As makes
}

// afterCommit is what a change leaves for this replica to do once it has committed.
type afterCommit struct {
	invalidations []string // credential cache keys to drop here
	UnreadChanged []string // users whose unread-notification count the change altered
}

// changeAttempts bounds how often a change that lost a serialization conflict or a
// deadlock is run again before the caller gets 503.
const changeAttempts = 4

// Change runs fn in a transaction and commits when it returns nil; it is the only way
// store code opens a transaction. A serialization failure or deadlock runs fn again (it
// must not keep state across attempts other than what it returns), a bounded number of
// times; driver errors leave as domain errors (see dbError).
func (db *DB) Change(ctx context.Context, actor assess.Actor, fn func(tx *Tx) error) error {
	for attempt := 1; ; attempt++ {
		err := db.changeOnce(ctx, actor, fn)
		if err == nil || !retryable(err) {
			return DBError(err)
		}
		if attempt == changeAttempts {
			return errBusy
		}
		backoff := time.Duration(attempt*attempt) * 5 * time.Millisecond
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff + rand.N(backoff)):
		}
	}
}

func (db *DB) changeOnce(ctx context.Context, actor assess.Actor, fn func(tx *Tx) error) error {
	ptx, err := db.Pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = ptx.Rollback(context.WithoutCancel(ctx)) }()
	tx := &Tx{Tx: ptx, DB: db, Now: db.Now(), Actor: actor, After: &afterCommit{}}
	if err := fn(tx); err != nil {
		return err
	}
	if err := ptx.Commit(ctx); err != nil {
		return err
	}
	if len(tx.After.invalidations) > 0 {
		db.Creds.invalidate(tx.After.invalidations...)
	}
	db.unreadChanged(ctx, tx.After.UnreadChanged)
	return nil
}

// As returns the same transaction acting as another actor (the system locking an account
// during a sign-in, a new user registering themselves); what the copy leaves for after the
// commit is the transaction's.
func (tx *Tx) As(actor assess.Actor) *Tx {
	c := *tx
	c.Actor = actor
	return &c
}

// Record writes the audit row of a change and, when the catalogue announces the change,
// emits its event, in one call and in this transaction: the audit action and the event
// type come from the one catalogue entry c. ev is the event's content (its Type is set
// from c); it must be empty when c is not announced. The audit row, the events row and
// the fan-out's reads travel in one round trip (see fanOutReads).
func (tx *Tx) Record(ctx context.Context, c assess.Change, target Target, details map[string]any, ev assess.NewEvent) error {
	audit, err := auditStatement(assess.AuditEntry{Actor: tx.Actor, Action: c.Action,
		TargetType: target.Type, TargetID: target.ID, ScopeID: target.Scope, Details: details})
	if err != nil {
		return err
	}
	switch {
	case c.Event == "" && ev.Data != nil:
		return fmt.Errorf("record %s: the change is not announced, but event data was given", c.Action)
	case c.Event == "":
		if _, err := tx.Exec(ctx, audit.sql, audit.args...); err != nil {
			return fmt.Errorf("write audit row: %w", err)
		}
		return nil
	}
	ev.Type = c.Event
	_, err = tx.DB.emit(ctx, tx, tx.Actor, ev, audit)
	return err
}

// Announce emits an event of the catalogue without an audit row of its own: for a change
// whose one audit row stands for several announcements (an update that also deactivates).
func (tx *Tx) Announce(ctx context.Context, name assess.EventName, ev assess.NewEvent) error {
	ev.Type = name
	_, err := tx.DB.emit(ctx, tx, tx.Actor, ev)
	return err
}

// Target names the record a change is about, as the audit log shows it.
type Target struct {
	Type string // "user", "role", "webhook", …
	ID   string
	// Scope is the assessment the record belongs to, for the assessment's activity
	// timeline ("" outside assessments).
	Scope string
}

// LockVersion locks the row id of table for the rest of the transaction and checks the
// caller's version against it: the one optimistic-concurrency check of the store. A
// missing row answers notFound; another version answers 409 version_conflict with the
// current version in the details. table is a constant of the calling code.
func (tx *Tx) LockVersion(ctx context.Context, table, id string, version int64, notFound error) error {
	var current int64
	err := tx.QueryRow(ctx, "SELECT version FROM "+table+" WHERE id = $1 FOR UPDATE", id).Scan(&current)
	if errors.Is(err, pgx.ErrNoRows) {
		return notFound
	}
	if err != nil {
		return err
	}
	if current != version {
		return VersionConflict(current)
	}
	return nil
}

// BumpVersion increments the version of row id of table and sets updated_at to the time
// of the change, after LockVersion and the change's own writes.
func (tx *Tx) BumpVersion(ctx context.Context, table, id string) error {
	_, err := tx.Exec(ctx, "UPDATE "+table+" SET version = version + 1, updated_at = $2 WHERE id = $1", id, tx.Now)
	return err
}

// VersionConflict answers a stale version with the current one in the details.
func VersionConflict(current int64) error {
	return &assess.Error{Code: assess.ECodeVersionConflict, Message: "The record was changed by someone else; reload it and try again.",
		Details: []assess.Detail{{Field: "version", Code: "stale", Message: fmt.Sprintf("The current version is %d.", current)}}}
}

// genericPlanOn and genericPlanOff switch a transaction to generic plans and back (the
// fan-out's batch surrounds recipientsSQL with them). Left to itself, PostgreSQL plans that
// statement anew on every execution although pgx prepared it
// (a custom plan): its boolean parameters fold whole branches away, so each custom plan
// looks cheaper than the generic one, and planning the 18-parameter statement cost more
// than running it (0.4–0.6 ms against 0.1–0.4 ms; the bench's -statements flag shows it).
// The generic plan is made once per connection and serves every event: the branches it
// keeps cost a one-time filter each. The setting lasts until genericPlanOff, and in any
// case only until the transaction ends; DEFAULT is the connection's own value.
const (
	genericPlanOn  = "SET LOCAL plan_cache_mode = force_generic_plan"
	genericPlanOff = "SET LOCAL plan_cache_mode TO DEFAULT"
)

// GenericPlans has PostgreSQL use generic plans for the rest of tx (until the fan-out's
// genericPlanOff, or the commit): for a change whose statements PostgreSQL would
// otherwise plan anew on every execution, when their generic plans serve every
// parameter as well (measured with the bench's -statements flag before use).
func (tx *Tx) GenericPlans(ctx context.Context) error {
	_, err := tx.Exec(ctx, genericPlanOn)
	return err
}
