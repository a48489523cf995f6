package postgres

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

var errInvalidResetToken = &assess.Error{Code: assess.ECodeBusinessRule, Message: "The reset link is invalid, used or expired; request a new one.",
	Details: []assess.Detail{{Field: "token", Code: "invalid_token", Message: "The reset link is invalid, used or expired."}}}

// resetAccount is the user a reset request names.
type resetAccount struct {
	ID, Username, Email, DisplayName string
}

// RequestPasswordReset implements assess.PasswordResetService. A new link ends the
// user's earlier unused ones. Unknown, inactive or address-less accounts, and e-mail
// switched off, get the same nil answer and only an audit row.
func (db *DB) RequestPasswordReset(ctx context.Context, login string, actor assess.Actor) error {
	login = strings.TrimSpace(login)
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return err
	}
	token := base64.RawURLEncoding.EncodeToString(raw)
	return db.inTx(ctx, func(tx pgx.Tx) error {
		var a resetAccount
		err := tx.QueryRow(ctx, `SELECT id, username, email, display_name FROM users
			WHERE active AND email <> '' AND (lower(username) = lower($1) OR lower(email) = lower($1))
			ORDER BY lower(username) = lower($1) DESC LIMIT 1`, login).Scan(&a.ID, &a.Username, &a.Email, &a.DisplayName)
		if errors.Is(err, pgx.ErrNoRows) {
			return writeAudit(ctx, tx, assess.AuditEntry{Actor: actorOrAnonymous(actor), Action: "auth.password_reset_requested",
				TargetType: "user", Details: map[string]any{"outcome": "unknown_account"}})
		}
		if err != nil {
			return err
		}
		on, err := db.emailOn(ctx, tx)
		if err != nil || !on {
			if err == nil {
				err = writeAudit(ctx, tx, assess.AuditEntry{Actor: actorOrAnonymous(actor), Action: "auth.password_reset_requested",
					TargetType: "user", TargetID: a.ID, Details: map[string]any{"outcome": "email_disabled"}})
			}
			return err
		}
		return db.issueResetToken(ctx, tx, a, token, actor)
	})
}

// issueResetToken stores the token's hash and queues the e-mail with the link.
func (db *DB) issueResetToken(ctx context.Context, tx pgx.Tx, a resetAccount, token string, actor assess.Actor) error {
	now := db.now()
	expires := now.Add(db.delivery.PasswordResetTTL)
	if _, err := tx.Exec(ctx, "DELETE FROM password_resets WHERE user_id = $1 AND consumed_at IS NULL", a.ID); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO password_resets (id, user_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)`,
		assess.NewID(assess.PrefixPasswordReset, now), a.ID, tokenHash(token), now, expires); err != nil {
		return err
	}
	params := map[string]string{"token": token, "username": a.Username, "displayName": a.DisplayName,
		"expiresAt": expires.UTC().Format(time.RFC3339)}
	if _, err := db.queueDeliveries(ctx, tx, []newDelivery{directEmail(a.Email, "Reset your Assay password",
		assess.EmailTemplatePasswordReset, params)}); err != nil {
		return err
	}
	return writeAudit(ctx, tx, assess.AuditEntry{Actor: actorOrAnonymous(actor), Action: "auth.password_reset_requested",
		TargetType: "user", TargetID: a.ID, Details: map[string]any{"outcome": "sent", "expiresAt": expires.UTC()}})
}

// ConfirmPasswordReset implements assess.PasswordResetService.
func (db *DB) ConfirmPasswordReset(ctx context.Context, token, password string, actor assess.Actor) error {
	token = strings.TrimSpace(token)
	var pending bool
	if err := db.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM password_resets r JOIN users u ON u.id = r.user_id
		WHERE r.token_hash = $1 AND r.consumed_at IS NULL AND r.expires_at > $2 AND u.active)`, tokenHash(token), db.now()).Scan(&pending); err != nil {
		return err
	}
	if !pending { // checked first, so a bad link costs no password hashing
		return errInvalidResetToken
	}
	hash, err := db.checkNewPassword(ctx, "password", password)
	if err != nil {
		return err
	}
	return db.inTx(ctx, func(tx pgx.Tx) error {
		now := db.now()
		var userID string
		err := tx.QueryRow(ctx, `UPDATE password_resets SET consumed_at = $2 WHERE token_hash = $1 AND consumed_at IS NULL AND expires_at > $2
			RETURNING user_id`, tokenHash(token), now).Scan(&userID)
		if errors.Is(err, pgx.ErrNoRows) {
			return errInvalidResetToken // used by a concurrent confirmation
		}
		if err != nil {
			return err
		}
		if err := replacePassword(ctx, &Tx{Tx: tx, db: db, Now: db.now()}, userID, hash); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "DELETE FROM password_resets WHERE user_id = $1 AND consumed_at IS NULL", userID); err != nil {
			return err
		}
		return writeAudit(ctx, tx, assess.AuditEntry{Actor: withID(actor, userID), Action: "user.password_reset_confirmed",
			TargetType: "user", TargetID: userID})
	})
}

var _ assess.PasswordResetService = (*DB)(nil)
