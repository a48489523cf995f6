package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// InTxForTest runs fn in a transaction of the legacy helper inTx.
func (db *DB) InTxForTest(ctx context.Context, fn func(pgx.Tx) error) error {
	return db.inTx(ctx, fn)
}
