package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// beginSnapshot begins a Snapshot's transaction.
const beginSnapshot = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"

// Snapshot is a read of several statements that must agree with each other: one read-only,
// repeatable-read transaction on one pooled connection, whose BEGIN travels in the round trip
// of its first statement and whose COMMIT in that of its last batch (End). So it costs the
// round trips of its statements and no more: a portfolio page (its rows, then their cells)
// was four, with a begin and a rollback of their own, and is two. Close ends what End did
// not (a read that stopped on an error), and releases the connection.
type Snapshot struct {
	conn  *pgxpool.Conn
	begun bool
	ended bool
}

// Snapshot starts a snapshot read on a pooled connection; nothing is sent until its first
// statement. The caller closes it.
func (p *pool) Snapshot(ctx context.Context) (*Snapshot, error) {
	c, err := p.acquire(ctx)
	if err != nil {
		return nil, err
	}
	return &Snapshot{conn: c}, nil
}

// withBegin returns b's statements with the BEGIN ahead of them on the snapshot's first
// use, and whether it is there.
func (s *Snapshot) withBegin(b *pgx.Batch) (*pgx.Batch, bool) {
	if s.begun {
		return b, false
	}
	s.begun = true
	var first pgx.Batch
	first.Queue(beginSnapshot)
	first.QueuedQueries = append(first.QueuedQueries, b.QueuedQueries...)
	return &first, true
}

// SendBatch implements Querier: b's statements, on the first use after the BEGIN.
func (s *Snapshot) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	sent, begins := s.withBegin(b)
	br := s.conn.SendBatch(ctx, sent)
	if begins {
		// The begin's result; an error stays with br for the caller.
		_, _ = br.Exec()
	}
	return br
}

// End sends b, the snapshot's last statements, with the COMMIT after them (and the BEGIN
// ahead when they are its first). The caller reads b's results and closes them.
func (s *Snapshot) End(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	b.Queue("COMMIT")
	s.ended = true
	return s.SendBatch(ctx, b)
}

// Query implements Querier.
func (s *Snapshot) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	if s.begun {
		rows, err := s.conn.Query(ctx, sql, args...)
		return rows, unavailable(err)
	}
	var b pgx.Batch
	b.Queue(sql, args...)
	br := s.SendBatch(ctx, &b)
	rows, err := br.Query()
	if err != nil {
		_ = br.Close()
		return nil, unavailable(err)
	}
	return &batchRows{Rows: rows, br: br}, nil
}

// QueryRow implements Querier.
func (s *Snapshot) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	rows, err := s.Query(ctx, sql, args...)
	return snapshotRow{rows: rows, err: err}
}

// Exec implements Querier.
func (s *Snapshot) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	if s.begun {
		tag, err := s.conn.Exec(ctx, sql, args...)
		return tag, unavailable(err)
	}
	var b pgx.Batch
	b.Queue(sql, args...)
	br := s.SendBatch(ctx, &b)
	tag, err := br.Exec()
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	return tag, unavailable(err)
}

// Close ends the transaction if End did not, or did not get through (an error on the way
// leaves it open or failed), and releases the connection.
func (s *Snapshot) Close(ctx context.Context) {
	if s.begun && (!s.ended || s.conn.Conn().PgConn().TxStatus() != 'I') {
		_, _ = s.conn.Exec(ctx, "ROLLBACK")
	}
	s.conn.Release()
}

// batchRows are the rows of a batch's one query: closing them reads the rest of the batch.
type batchRows struct {
	pgx.Rows
	br  pgx.BatchResults
	err error
}

func (r *batchRows) Next() bool {
	if r.Rows.Next() {
		return true
	}
	r.Close()
	return false
}

func (r *batchRows) Close() {
	r.Rows.Close()
	if r.br != nil {
		r.err = r.br.Close()
		r.br = nil
	}
}

func (r *batchRows) Err() error {
	if err := r.Rows.Err(); err != nil {
		return unavailable(err)
	}
	return unavailable(r.err)
}

// snapshotRow is the first row of a query, as pgx's QueryRow reads it.
type snapshotRow struct {
	rows pgx.Rows
	err  error
}

func (r snapshotRow) Scan(dest ...any) error {
	if r.err != nil {
		return r.err
	}
	defer r.rows.Close()
	if !r.rows.Next() {
		if err := r.rows.Err(); err != nil {
			return err
		}
		return pgx.ErrNoRows
	}
	if err := r.rows.Scan(dest...); err != nil {
		return err
	}
	r.rows.Close()
	return r.rows.Err()
}

var _ Querier = (*Snapshot)(nil)
