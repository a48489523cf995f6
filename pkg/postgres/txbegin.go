package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// deferredTx is a transaction on generic plans (ChangeGeneric) whose begin travels with
// its first statements: when the change's first round trip is a batch — a create's checks,
// or its writes with its audit row and event — the begin and the switch to generic plans
// are queued ahead of them (pgx's Batch.BeginTx), which saves the round trip of a begin of
// their own; any other first use begins in one round trip as Change does
// (beginGeneric). A change that fails before its first statement (a request that does not
// validate) costs no round trip at all: nothing was begun, so commit and rollback have
// nothing to do.
type deferredTx struct {
	conn *pgxpool.Conn
	tx   pgx.Tx // nil until begun
}

// begun returns the transaction, beginning it in a round trip of its own if no batch has.
func (t *deferredTx) begun(ctx context.Context) (pgx.Tx, error) {
	if t.tx != nil {
		return t.tx, nil
	}
	tx, err := t.conn.BeginTx(ctx, pgx.TxOptions{BeginQuery: beginGeneric})
	if err != nil {
		return nil, unavailable(err)
	}
	t.tx = tx
	return tx, nil
}

// SendBatch sends b, with the begin ahead of its statements when it is the transaction's
// first use. The begin's results are read here; the caller reads b's as usual.
func (t *deferredTx) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	if t.tx != nil {
		return t.tx.SendBatch(ctx, b)
	}
	var begin pgx.Batch
	begin.BeginTx(pgx.TxOptions{})
	begin.Queue(genericPlanOn)
	begin.QueuedQueries = append(begin.QueuedQueries, b.QueuedQueries...)
	br := t.conn.SendBatch(ctx, &begin)
	t.tx = br.Tx()
	for range 2 { // the begin and the switch; an error stays with br for the caller
		if _, err := br.Exec(); err != nil {
			break
		}
	}
	return br
}

func (t *deferredTx) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	tx, err := t.begun(ctx)
	if err != nil {
		return pgconn.CommandTag{}, err
	}
	return tx.Exec(ctx, sql, args...)
}

func (t *deferredTx) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	tx, err := t.begun(ctx)
	if err != nil {
		return nil, err
	}
	return tx.Query(ctx, sql, args...)
}

func (t *deferredTx) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	tx, err := t.begun(ctx)
	if err != nil {
		return errRow{err}
	}
	return tx.QueryRow(ctx, sql, args...)
}

func (t *deferredTx) CopyFrom(ctx context.Context, table pgx.Identifier, columns []string, src pgx.CopyFromSource) (int64, error) {
	tx, err := t.begun(ctx)
	if err != nil {
		return 0, err
	}
	return tx.CopyFrom(ctx, table, columns, src)
}

func (t *deferredTx) Prepare(ctx context.Context, name, sql string) (*pgconn.StatementDescription, error) {
	tx, err := t.begun(ctx)
	if err != nil {
		return nil, err
	}
	return tx.Prepare(ctx, name, sql)
}

func (t *deferredTx) Begin(ctx context.Context) (pgx.Tx, error) {
	tx, err := t.begun(ctx)
	if err != nil {
		return nil, err
	}
	return tx.Begin(ctx)
}

// LargeObjects begins the transaction first (without a context of the caller's).
func (t *deferredTx) LargeObjects() pgx.LargeObjects {
	tx, err := t.begun(context.Background())
	if err != nil {
		return pgx.LargeObjects{}
	}
	return tx.LargeObjects()
}

func (t *deferredTx) Conn() *pgx.Conn { return t.conn.Conn() }

// Commit commits what was begun; a transaction never begun has nothing to commit.
func (t *deferredTx) Commit(ctx context.Context) error {
	if t.tx == nil {
		return nil
	}
	return t.tx.Commit(ctx)
}

// Rollback rolls back what was begun.
func (t *deferredTx) Rollback(ctx context.Context) error {
	if t.tx == nil {
		return nil
	}
	return t.tx.Rollback(ctx)
}

// errRow is a row whose query could not be sent.
type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }

var _ pgx.Tx = (*deferredTx)(nil)
