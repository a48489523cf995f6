package identity

import (
	"context"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// refuseBreached fails when a new password is known from a breach.
func (c *Config) refuseBreached(ctx context.Context, field, password string) error {
	if c.Breaches == nil || !c.Breaches.Breached(ctx, password) {
		return nil
	}
	return &assess.Error{Code: assess.ECodeValidation, Message: "This password appears in a known data breach; choose another.",
		Details: []assess.Detail{{Field: field, Code: "breached", Message: "This password appears in a known data breach."}}}
}

// checkPasswordPolicy applies the password policy and the breached-password check to a
// new password. field names the request field in errors.
func (c *Config) checkPasswordPolicy(ctx context.Context, field, password string) error {
	if d := assess.PasswordProblem(password, c.PasswordMinLength); d != nil {
		return &assess.Error{Code: assess.ECodeValidation, Message: "The new password is not acceptable.", Details: []assess.Detail{*d}}
	}
	return c.refuseBreached(ctx, field, password)
}

// checkNewPassword is checkPasswordPolicy followed by hashing.
func (c *Config) checkNewPassword(ctx context.Context, field, password string) (string, error) {
	if err := c.checkPasswordPolicy(ctx, field, password); err != nil {
		return "", err
	}
	return c.Hasher.Hash(ctx, password)
}

// replacePassword stores a new password hash set on someone's behalf (an administrator's
// reset, an e-mailed reset link): it clears a lockout and ends every session of the user.
func replacePassword(ctx context.Context, tx *postgres.Tx, userID, hash string) error {
	if err := tx.Invalidate(ctx, postgres.UserCredentials(userID)); err != nil {
		return err
	}
	now := tx.Now
	if _, err := tx.Exec(ctx, `UPDATE users SET password_hash = $2, password_changed_at = $3, failed_logins = 0, locked_until = NULL,
		version = version + 1, updated_at = $3 WHERE id = $1`, userID, hash, now); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, "UPDATE sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL", userID, now)
	return err
}
