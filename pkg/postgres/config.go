package postgres

import (
	"context"
	"time"
)

// PurgeTerminalInvites implements assess.MaintenanceService (with the rest of the
// maintenance in db.go): it deletes invites that became consumed, revoked or expired
// before olderThan, in one statement.
func (db *DB) PurgeTerminalInvites(ctx context.Context, olderThan time.Time) (int64, error) {
	tag, err := db.Pool.Exec(ctx, `DELETE FROM invites WHERE coalesce(consumed_at, revoked_at, expires_at) < $1
		AND (consumed_at IS NOT NULL OR revoked_at IS NOT NULL OR expires_at < $1)`, olderThan)
	return tag.RowsAffected(), DBError(err)
}
