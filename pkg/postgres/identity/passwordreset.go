package identity

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
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
func (s *PasswordResetService) RequestPasswordReset(ctx context.Context, login string, actor assess.Actor) error {
	login = strings.TrimSpace(login)
	token, err := newToken()
	if err != nil {
		return err
	}
	return s.db.Change(ctx, postgres.ActorOrAnonymous(actor), func(tx *postgres.Tx) error {
		var a resetAccount
		err := tx.QueryRow(ctx, `SELECT id, username, email, display_name FROM users
			WHERE active AND email <> '' AND (lower(username) = lower($1) OR lower(email) = lower($1))
			ORDER BY lower(username) = lower($1) DESC LIMIT 1`, login).Scan(&a.ID, &a.Username, &a.Email, &a.DisplayName)
		if errors.Is(err, pgx.ErrNoRows) {
			return recordResetRequest(ctx, tx, "", map[string]any{"outcome": "unknown_account"})
		}
		if err != nil {
			return err
		}
		on, err := s.db.EmailOn(ctx, tx)
		if err != nil {
			return err
		}
		if !on {
			return recordResetRequest(ctx, tx, a.ID, map[string]any{"outcome": "email_disabled"})
		}
		return s.issueResetToken(ctx, tx, a, token)
	})
}

// recordResetRequest audits a reset request and its outcome.
func recordResetRequest(ctx context.Context, tx *postgres.Tx, userID string, details map[string]any) error {
	return tx.Record(ctx, assess.ChangeAuthPasswordResetAsked, userTarget(userID), details, assess.NewEvent{})
}

// issueResetToken stores the token's hash and queues the e-mail with the link.
func (s *PasswordResetService) issueResetToken(ctx context.Context, tx *postgres.Tx, a resetAccount, token string) error {
	expires := tx.Now.Add(s.db.Delivery.PasswordResetTTL)
	if _, err := tx.Exec(ctx, "DELETE FROM password_resets WHERE user_id = $1 AND consumed_at IS NULL", a.ID); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO password_resets (id, user_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)`,
		assess.NewID(assess.PrefixPasswordReset, tx.Now), a.ID, tokenHash(token), tx.Now, expires); err != nil {
		return err
	}
	params := map[string]string{"token": token, "username": a.Username, "displayName": a.DisplayName,
		"expiresAt": expires.UTC().Format(time.RFC3339)}
	if _, err := s.db.QueueDeliveries(ctx, tx, []postgres.NewDelivery{postgres.DirectEmail(a.Email, "Reset your Assay password",
		assess.EmailTemplatePasswordReset, params)}); err != nil {
		return err
	}
	return recordResetRequest(ctx, tx, a.ID, map[string]any{"outcome": "sent", "expiresAt": expires.UTC()})
}

// ConfirmPasswordReset implements assess.PasswordResetService. The token is checked
// first, so a bad link costs no password hashing; the new password is checked against
// the policy and hashed before the transaction, which consumes the token (once: a
// concurrent confirmation finds it used) and acts as the account's owner.
func (s *PasswordResetService) ConfirmPasswordReset(ctx context.Context, token, password string, actor assess.Actor) error {
	token = strings.TrimSpace(token)
	var pending bool
	if err := s.db.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM password_resets r JOIN users u ON u.id = r.user_id
		WHERE r.token_hash = $1 AND r.consumed_at IS NULL AND r.expires_at > $2 AND u.active)`, tokenHash(token), s.db.Now()).Scan(&pending); err != nil {
		return postgres.DBError(err)
	}
	if !pending {
		return errInvalidResetToken
	}
	hash, err := s.cfg.checkNewPassword(ctx, "password", password)
	if err != nil {
		return err
	}
	return s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		var userID string
		err := tx.QueryRow(ctx, `UPDATE password_resets SET consumed_at = $2 WHERE token_hash = $1 AND consumed_at IS NULL AND expires_at > $2
			RETURNING user_id`, tokenHash(token), tx.Now).Scan(&userID)
		if errors.Is(err, pgx.ErrNoRows) {
			return errInvalidResetToken // used by a concurrent confirmation
		}
		if err != nil {
			return err
		}
		if err := replacePassword(ctx, tx, userID, hash); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "DELETE FROM password_resets WHERE user_id = $1 AND consumed_at IS NULL", userID); err != nil {
			return err
		}
		return tx.As(withID(tx.Actor, userID)).Record(ctx, assess.ChangeUserPasswordResetByEmail, userTarget(userID), nil, assess.NewEvent{})
	})
}

var _ assess.PasswordResetService = (*PasswordResetService)(nil)
