package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/assay-dev/assay/pkg/assess"
)

// IdempotencyStore implements assess.IdempotencyStore on the table idempotency_keys. The
// primary key (scope, endpoint, key) is the lock: of two concurrent requests with one key,
// exactly one inserts the in-progress row, the other finds it.
type IdempotencyStore struct{ db *DB }

// NewIdempotencyStore returns a store on pool. now is the clock (time.Now when nil).
func NewIdempotencyStore(pool *pgxpool.Pool, now func() time.Time) *IdempotencyStore {
	return &IdempotencyStore{New(pool, now)}
}

// errKeyVanished is returned by claimKey when the conflicting row was abandoned between
// the insert and the read; Begin simply tries again.
var errKeyVanished = errors.New("idempotency key released meanwhile")

// Begin implements assess.IdempotencyStore. A row older than assess.IdempotencyKeyLifetime
// is deleted first, so an expired key behaves as if it had never been used; so is a row
// left in progress for longer than assess.IdempotencyInProgressTimeout by a request that
// died.
func (s *IdempotencyStore) Begin(ctx context.Context, scope, endpoint, key string, requestHash []byte) (assess.IdempotencyRecord, bool, error) {
	for range 3 {
		var rec assess.IdempotencyRecord
		var started bool
		err := s.db.Change(ctx, assess.SystemActor, func(tx *Tx) error {
			var err error
			rec, started, err = s.claimKey(ctx, tx, scope, endpoint, key, requestHash)
			return err
		})
		if errors.Is(err, errKeyVanished) {
			continue
		}
		if err != nil {
			return assess.IdempotencyRecord{}, false, fmt.Errorf("idempotency: begin: %w", err)
		}
		return rec, started, nil
	}
	return assess.IdempotencyRecord{}, false, fmt.Errorf("idempotency: begin: %w", errKeyVanished)
}

func (s *IdempotencyStore) claimKey(ctx context.Context, tx *Tx, scope, endpoint, key string, requestHash []byte) (assess.IdempotencyRecord, bool, error) {
	now := tx.Now
	if _, err := tx.Exec(ctx, `DELETE FROM idempotency_keys
		WHERE scope = $1 AND endpoint = $2 AND key = $3 AND (created_at < $4 OR (completed_at IS NULL AND created_at < $5))`,
		scope, endpoint, key, now.Add(-assess.IdempotencyKeyLifetime), now.Add(-assess.IdempotencyInProgressTimeout)); err != nil {
		return assess.IdempotencyRecord{}, false, err
	}
	// A concurrent claimer's uncommitted row makes this insert wait for its commit; it
	// then does nothing and the read below sees the winner's row.
	tag, err := tx.Exec(ctx, `INSERT INTO idempotency_keys (scope, endpoint, key, request_hash, created_at)
		VALUES ($1, $2, $3, $4, $5) ON CONFLICT (scope, endpoint, key) DO NOTHING`,
		scope, endpoint, key, requestHash, now)
	if err != nil {
		return assess.IdempotencyRecord{}, false, err
	}
	if tag.RowsAffected() == 1 {
		return assess.IdempotencyRecord{RequestHash: requestHash}, true, nil
	}
	var rec assess.IdempotencyRecord
	var status *int
	err = tx.QueryRow(ctx, `SELECT request_hash, status, headers, body, completed_at IS NOT NULL
		FROM idempotency_keys WHERE scope = $1 AND endpoint = $2 AND key = $3`,
		scope, endpoint, key).Scan(&rec.RequestHash, &status, &rec.Headers, &rec.Body, &rec.Completed)
	if errors.Is(err, pgx.ErrNoRows) {
		return rec, false, errKeyVanished
	}
	if status != nil {
		rec.Status = *status
	}
	return rec, false, err
}

// Complete implements assess.IdempotencyStore. It fails when the key is not in progress
// (never claimed, already completed, or abandoned).
func (s *IdempotencyStore) Complete(ctx context.Context, scope, endpoint, key string, status int, headers map[string]string, body []byte) error {
	if headers == nil {
		headers = map[string]string{}
	}
	if body == nil {
		body = []byte{}
	}
	tag, err := s.db.Pool.Exec(ctx, `UPDATE idempotency_keys SET status = $4, headers = $5, body = $6, completed_at = $7
		WHERE scope = $1 AND endpoint = $2 AND key = $3 AND completed_at IS NULL`,
		scope, endpoint, key, status, headers, body, s.db.Now())
	if err != nil {
		return fmt.Errorf("idempotency: complete: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return errors.New("idempotency: complete: the key is not in progress")
	}
	return nil
}

// Abandon implements assess.IdempotencyStore. Completed keys are left alone.
func (s *IdempotencyStore) Abandon(ctx context.Context, scope, endpoint, key string) error {
	_, err := s.db.Pool.Exec(ctx, `DELETE FROM idempotency_keys
		WHERE scope = $1 AND endpoint = $2 AND key = $3 AND completed_at IS NULL`, scope, endpoint, key)
	if err != nil {
		return fmt.Errorf("idempotency: abandon: %w", err)
	}
	return nil
}

// PurgeIdempotencyKeys implements assess.LimitsMaintenance.
func (db *DB) PurgeIdempotencyKeys(ctx context.Context, olderThan time.Time) (int64, error) {
	tag, err := db.Pool.Exec(ctx, "DELETE FROM idempotency_keys WHERE created_at < $1", olderThan)
	if err != nil {
		return 0, fmt.Errorf("purge idempotency keys: %w", err)
	}
	return tag.RowsAffected(), nil
}

var (
	_ assess.IdempotencyStore  = (*IdempotencyStore)(nil)
	_ assess.LimitsMaintenance = (*DB)(nil)
)
