package postgres

import (
	"context"
	"time"

	"github.com/assay-dev/assay/pkg/secret"
)

// AttestationConfig is what the attestation documents need of the installation.
type AttestationConfig struct {
	// AppURL is the service's public URL: evidence files are linked under it.
	AppURL string
	// ToolVersion names the service's version in the documents' metadata.
	ToolVersion string
}

// ConfigureAttestations sets the attestation configuration and returns db.
func (db *DB) ConfigureAttestations(c AttestationConfig) *DB {
	db.Attestations = c
	return db
}

// IdentityConfig holds the account policies.
type IdentityConfig struct {
	PasswordMinLength int           // PASSWORD_MIN_LENGTH
	MaxFailedLogins   int           // LOGIN_MAX_FAILED_ATTEMPTS; 0 disables lockout
	LockoutDuration   time.Duration // LOGIN_LOCKOUT_DURATION_MINUTES
	// Breaches checks new passwords against a breached-password range service; nil
	// disables the check (PASSWORD_HIBP_CHECK_ENABLED).
	Breaches *secret.BreachChecker
}

// ConfigureIdentity sets the account policies and the password hasher.
func (db *DB) ConfigureIdentity(cfg IdentityConfig, hasher *secret.Hasher) *DB {
	db.Identity, db.Hasher = cfg, hasher
	return db
}

// PurgeTerminalInvites implements assess.MaintenanceService (with the rest of the
// maintenance in db.go): it deletes invites that became consumed, revoked or expired
// before olderThan, in one statement.
func (db *DB) PurgeTerminalInvites(ctx context.Context, olderThan time.Time) (int64, error) {
	tag, err := db.Pool.Exec(ctx, `DELETE FROM invites WHERE coalesce(consumed_at, revoked_at, expires_at) < $1
		AND (consumed_at IS NOT NULL OR revoked_at IS NOT NULL OR expires_at < $1)`, olderThan)
	return tag.RowsAffected(), DBError(err)
}
