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
	// SendBatch sends several statements in one round trip (a page's links: QueueLinks,
	// QueueTags); the results are read, and a pooled connection released, by Close.
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
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

	generic bool // the transaction runs on generic plans from its first statement (ChangeGeneric)
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
	return db.change(ctx, actor, false, fn)
}

// ChangeGeneric is Change on PostgreSQL's generic plans from the first statement, for a
// change whose statements are all looked up by key and run often (a create). The begin
// carries the switch and travels with the change's first batch (deferredTx), so neither
// costs a round trip of its own. Left to itself, PostgreSQL plans some of them anew on
// every execution — a visibility check with its participant ties, ids given as an array —
// because a plan for the given values looks cheaper than the generic one; planning them
// cost more than running them (0.3–3 ms against 0.02–0.2 ms under create load, the bench's
// -statements flag shows it). The generic plan is made once per connection and statement.
// Use it only for statements whose generic plans were checked (EXPLAIN of the prepared
// statement with plan_cache_mode = force_generic_plan): a generic plan can hash a whole
// set where a custom one looks up one row.
func (db *DB) ChangeGeneric(ctx context.Context, actor assess.Actor, fn func(tx *Tx) error) error {
	return db.change(ctx, actor, true, fn)
}

func (db *DB) change(ctx context.Context, actor assess.Actor, generic bool, fn func(tx *Tx) error) error {
	for attempt := 1; ; attempt++ {
		err := db.changeOnce(ctx, actor, generic, fn)
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

// beginGeneric opens a transaction on generic plans in one round trip, when its first use
// is not a batch: pgx sends a begin query without arguments in the simple protocol, which
// takes several statements.
const beginGeneric = "BEGIN; " + genericPlanOn

func (db *DB) changeOnce(ctx context.Context, actor assess.Actor, generic bool, fn func(tx *Tx) error) error {
	ptx, err := db.begin(ctx, generic)
	if err != nil {
		return err
	}
	defer func() { _ = ptx.Rollback(context.WithoutCancel(ctx)) }()
	tx := &Tx{Tx: ptx, DB: db, Now: db.Now(), Actor: actor, After: &afterCommit{}, generic: generic}
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

// begin starts a transaction on a pooled connection; on generic plans, deferred to the
// transaction's first round trip (deferredTx).
func (db *DB) begin(ctx context.Context, generic bool) (pgx.Tx, error) {
	if !generic {
		return db.Pool.Begin(ctx)
	}
	c, err := db.Pool.acquire(ctx)
	if err != nil {
		return nil, err
	}
	return &pooledTx{Tx: &deferredTx{conn: c}, conn: c}, nil
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
// from c); it must be empty when c is not announced. The statements before (the change's
// own writes, which need no answer) are sent first, in the same round trip as the audit
// row, the event and its fan-out, which are one statement (see fanOutSQL).
func (tx *Tx) Record(ctx context.Context, c assess.Change, target Target, details map[string]any, ev assess.NewEvent, before ...Statement) error {
	return tx.RecordAll(ctx, []Recording{{Change: c, Target: target, Details: details, Event: ev}}, before...)
}

// Recording is one change for RecordAll, as Record takes it.
type Recording struct {
	Change  assess.Change
	Target  Target
	Details map[string]any
	Event   assess.NewEvent
}

// RecordAll records several changes (each as Record does) in one round trip, in order,
// after the statements before.
func (tx *Tx) RecordAll(ctx context.Context, recs []Recording, before ...Statement) error {
	ems := make([]emission, 0, len(recs))
	for _, r := range recs {
		audit, err := auditStatement(assess.AuditEntry{Actor: tx.Actor, Action: r.Change.Action,
			TargetType: r.Target.Type, TargetID: r.Target.ID, ScopeID: r.Target.Scope, Details: r.Details})
		if err != nil {
			return err
		}
		switch {
		case r.Change.Event == "" && r.Event.Data != nil:
			return fmt.Errorf("record %s: the change is not announced, but event data was given", r.Change.Action)
		case r.Change.Event == "":
			ems = append(ems, emission{statement: audit})
			continue
		}
		ev := r.Event
		ev.Type = r.Change.Event
		e, err := tx.DB.emission(ctx, tx, tx.Actor, ev, &audit)
		if err != nil {
			return err
		}
		ems = append(ems, e)
	}
	return tx.DB.record(ctx, tx, before, ems)
}

// Send sends statements in one round trip, each checked (Statement.Check): writes of a
// change whose results it does not read.
func (tx *Tx) Send(ctx context.Context, stmts ...Statement) error {
	return tx.DB.record(ctx, tx, stmts, nil)
}

// Statement is a write of a change sent ahead of its audit row in the same round trip
// (Record's before): one whose result the change does not read, other than by Check.
type Statement struct {
	SQL  string
	Args []any
	// Check, when set, judges the statement's command tag (a create whose insert found
	// nothing to insert); its error fails the change, which rolls back what followed.
	Check func(pgconn.CommandTag) error
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
	return tx.lockVersion(ctx, "FOR UPDATE", table, id, version, notFound)
}

// LockVersionNoKey is LockVersion with the lock of an UPDATE that keeps the key (FOR NO
// KEY UPDATE): it waits for another change of the row but not for the foreign-key checks of
// rows being inserted under it (FOR KEY SHARE), for a row that many inserts refer to and
// whose change does not depend on them (a requirement row of an assessment, which evidence
// links refer to; their counts are kept on the row, so links and results still wait for
// each other there). With FOR UPDATE, a result queued behind such a check closed a cycle
// with the inserter and a third writer (TestAssessmentProgressWritersDoNotDeadlock).
// Evidence keeps FOR UPDATE: a change of it checks that no claim cites it, and must wait
// for a citation being inserted.
func (tx *Tx) LockVersionNoKey(ctx context.Context, table, id string, version int64, notFound error) error {
	return tx.lockVersion(ctx, "FOR NO KEY UPDATE", table, id, version, notFound)
}

func (tx *Tx) lockVersion(ctx context.Context, lock, table, id string, version int64, notFound error) error {
	var current int64
	err := tx.QueryRow(ctx, "SELECT version FROM "+table+" WHERE id = $1 "+lock, id).Scan(&current)
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

// genericPlanOn and genericPlanOff switch a transaction to generic plans and back (a
// change not on generic plans already has its statements recording events, fanOutSQL,
// surrounded by them; ChangeGeneric begins with the first). Left to itself, PostgreSQL plans that
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
