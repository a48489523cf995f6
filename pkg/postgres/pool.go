package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// pool is the connection pool as store code uses it. Every call waits at most
// acquireTimeout for a free connection, and a database that cannot be reached (refused,
// shutting down, over its limits, frozen past the caller's deadline) is reported as the
// domain's 503 service_unavailable rather than as an internal error; constraint errors
// pass through unchanged for dbError to map in the change that caused them.
type pool struct {
	*pgxpool.Pool
	acquireTimeout time.Duration
}

func (p *pool) acquire(ctx context.Context) (*pgxpool.Conn, error) {
	if p.acquireTimeout > 0 {
		actx, cancel := context.WithTimeout(ctx, p.acquireTimeout)
		defer cancel()
		c, err := p.Pool.Acquire(actx) //nolint:staticcheck // the embedded pool, not this wrapper
		if err != nil && ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
			return nil, errPoolExhausted
		}
		return c, unavailable(err)
	}
	c, err := p.Pool.Acquire(ctx) //nolint:staticcheck // the embedded pool, not this wrapper
	return c, unavailable(err)
}

// Exec runs a statement on a pooled connection.
func (p *pool) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	c, err := p.acquire(ctx)
	if err != nil {
		return pgconn.CommandTag{}, err
	}
	defer c.Release()
	tag, err := c.Exec(ctx, sql, args...)
	return tag, unavailable(err)
}

// Query runs a query; the connection returns to the pool when the rows are closed or read
// to the end. A query that meets a connection the server dropped while it was idle in the
// pool is run once more on another (reads are safe to repeat).
func (p *pool) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	for attempt := 0; ; attempt++ {
		c, err := p.acquire(ctx)
		if err != nil {
			return nil, err
		}
		rows, err := c.Query(ctx, sql, args...)
		if err == nil {
			return &pooledRows{Rows: rows, conn: c}, nil
		}
		c.Release()
		if err = unavailable(err); attempt > 0 || err != errDatabaseUnavailable || ctx.Err() != nil {
			return nil, err
		}
	}
}

// QueryRow runs a query for one row; the connection returns to the pool after Scan. Like
// Query, it is run once more when its connection turns out to have been dropped.
func (p *pool) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return &pooledRow{pool: p, ctx: ctx, sql: sql, args: args}
}

// SendBatch sends b on a pooled connection, released when the results are closed. Unlike
// Query, a batch is not sent again on another connection when its own turns out to have
// been dropped: the batch's callbacks may have read part of its answers by then. b must
// not begin a transaction (a change begins with Change).
func (p *pool) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	c, err := p.acquire(ctx)
	if err != nil {
		return pgx.FailedBatchResults(b, err)
	}
	return &pooledBatchResults{BatchResults: c.SendBatch(ctx, b), conn: c}
}

// Begin starts a transaction on a pooled connection, released at commit or rollback.
func (p *pool) Begin(ctx context.Context) (pgx.Tx, error) {
	c, err := p.acquire(ctx)
	if err != nil {
		return nil, err
	}
	tx, err := c.Begin(ctx)
	if err != nil {
		c.Release()
		return nil, unavailable(err)
	}
	return &pooledTx{Tx: tx, conn: c}, nil
}

type pooledRows struct {
	pgx.Rows
	conn *pgxpool.Conn
}

func (r *pooledRows) release() {
	if r.conn != nil {
		r.conn.Release()
		r.conn = nil
	}
}

func (r *pooledRows) Next() bool {
	if r.Rows.Next() {
		return true
	}
	r.Rows.Close()
	r.release()
	return false
}

func (r *pooledRows) Close() {
	r.Rows.Close()
	r.release()
}

func (r *pooledRows) Err() error { return unavailable(r.Rows.Err()) }

type pooledBatchResults struct {
	pgx.BatchResults
	conn *pgxpool.Conn
}

func (r *pooledBatchResults) Close() error {
	err := r.BatchResults.Close()
	if r.conn != nil {
		r.conn.Release()
		r.conn = nil
	}
	return unavailable(err)
}

type pooledRow struct {
	pool *pool
	ctx  context.Context
	sql  string
	args []any
}

func (r *pooledRow) Scan(dest ...any) error {
	for attempt := 0; ; attempt++ {
		c, err := r.pool.acquire(r.ctx)
		if err != nil {
			return err
		}
		err = unavailable(c.QueryRow(r.ctx, r.sql, r.args...).Scan(dest...))
		c.Release()
		if attempt > 0 || err != errDatabaseUnavailable || r.ctx.Err() != nil {
			return err
		}
	}
}

type pooledTx struct {
	pgx.Tx
	conn *pgxpool.Conn
}

func (t *pooledTx) Commit(ctx context.Context) error {
	defer t.release()
	return unavailable(t.Tx.Commit(ctx))
}

func (t *pooledTx) Rollback(ctx context.Context) error {
	defer t.release()
	return t.Tx.Rollback(ctx)
}

func (t *pooledTx) release() {
	if t.conn != nil {
		t.conn.Release()
		t.conn = nil
	}
}

// unavailable turns an error that says the database cannot be reached into the domain's
// service_unavailable; every other error passes through unchanged.
func unavailable(err error) error {
	if err == nil || errors.Is(err, pgx.ErrNoRows) {
		return err
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		if unavailableClass(pgErr.Code) {
			return errDatabaseUnavailable
		}
		return err
	}
	if connectionLost(err) {
		return errDatabaseUnavailable
	}
	return err
}
