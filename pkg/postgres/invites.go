package postgres

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"

	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

var errInviteNotFound = &assess.Error{Code: assess.ECodeNotFound, Message: "No such invite."}

func tokenHash(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}

// CreateInvite implements assess.InviteService. The token is returned once; only its
// SHA-256 is stored.
func (db *DB) CreateInvite(ctx context.Context, in assess.NewInvite, actor assess.Actor) (assess.Invite, string, error) {
	in.Email = assess.NormalizeEmail(in.Email)
	if in.ExpiresInHours == 0 {
		in.ExpiresInHours = 168
	}
	if err := checkInviteEmail(in); err != nil {
		return assess.Invite{}, "", err
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return assess.Invite{}, "", err
	}
	token := base64.RawURLEncoding.EncodeToString(raw)
	now := db.now()
	inv := assess.Invite{ID: assess.NewID(assess.PrefixInvite, now), Email: in.Email, IntendedRole: in.IntendedRole,
		Status: assess.InviteUnused, CreatedBy: actor.ID, CreatedAt: now.UTC(), ExpiresAt: now.Add(time.Duration(in.ExpiresInHours) * time.Hour).UTC()}
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		ids, err := roleIDs(ctx, tx, []string{in.IntendedRole})
		if err != nil {
			return err
		}
		var email *string
		if in.Email != "" {
			email = &in.Email
		}
		if _, err := tx.Exec(ctx, `INSERT INTO invites (id, email, role_id, token_hash, created_by, created_at, expires_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`, inv.ID, email, ids[0], tokenHash(token), actor.ID, now, inv.ExpiresAt); err != nil {
			return err
		}
		if err := writeAudit(ctx, tx, assess.AuditEntry{Actor: actor, Action: "invite.created", TargetType: "invite", TargetID: inv.ID,
			Details: map[string]any{"email": in.Email, "intendedRole": in.IntendedRole, "expiresAt": inv.ExpiresAt, "sendEmail": in.SendEmail}}); err != nil {
			return err
		}
		if _, err := db.emit(ctx, tx, actor, withType(assess.EventInviteCreated, inviteEvent(inv))); err != nil {
			return err
		}
		if in.SendEmail {
			return db.queueInviteEmail(ctx, tx, inv, token, actor)
		}
		return nil
	})
	if err != nil {
		return assess.Invite{}, "", err
	}
	return inv, token, nil
}

// FindInvites implements assess.InviteService, newest first, keyset on the id.
func (db *DB) FindInvites(ctx context.Context, cursor string, limit int) ([]assess.Invite, string, error) {
	if cursor == "" {
		cursor = "inv_~"
	}
	rows, err := db.pool.Query(ctx, `SELECT i.id, coalesce(i.email, ''), r.name, i.created_by, i.created_at, i.expires_at, i.consumed_at, i.revoked_at
		FROM invites i JOIN roles r ON r.id = i.role_id WHERE i.id < $1 ORDER BY i.id DESC LIMIT $2`, cursor, limit+1)
	if err != nil {
		return nil, "", err
	}
	now := db.now()
	invites, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (assess.Invite, error) {
		var i assess.Invite
		err := r.Scan(&i.ID, &i.Email, &i.IntendedRole, &i.CreatedBy, &i.CreatedAt, &i.ExpiresAt, &i.ConsumedAt, &i.RevokedAt)
		i.Status = assess.InviteStatus(i.ConsumedAt, i.RevokedAt, i.ExpiresAt, now)
		return i, err
	})
	if err != nil {
		return nil, "", err
	}
	next := ""
	if len(invites) > limit {
		invites, next = invites[:limit], invites[limit-1].ID
	}
	return invites, next, nil
}

// RevokeInvite implements assess.InviteService. Revoking an unused invite ends it;
// revoking it again succeeds without change; a consumed or expired invite cannot be
// revoked (409 invalid_state_transition).
func (db *DB) RevokeInvite(ctx context.Context, id string, actor assess.Actor) error {
	if !assess.ValidID(assess.PrefixInvite, id) {
		return errInviteNotFound
	}
	return db.inTx(ctx, func(tx pgx.Tx) error {
		var consumed, revoked *time.Time
		var expires time.Time
		err := tx.QueryRow(ctx, "SELECT consumed_at, revoked_at, expires_at FROM invites WHERE id = $1 FOR UPDATE", id).Scan(&consumed, &revoked, &expires)
		if errors.Is(err, pgx.ErrNoRows) {
			return errInviteNotFound
		}
		if err != nil {
			return err
		}
		switch status := assess.InviteStatus(consumed, revoked, expires, db.now()); status {
		case assess.InviteRevoked:
			return nil
		case assess.InviteConsumed, assess.InviteExpired:
			return &assess.Error{Code: assess.ECodeInvalidState, Message: "Only an unused invite can be revoked; this one is " + status + ".",
				Details: []assess.Detail{{Field: "status", Code: status, Message: "from " + status + " to revoked; allowed from: unused"}}}
		}
		if _, err := tx.Exec(ctx, "UPDATE invites SET revoked_at = $2 WHERE id = $1", id, db.now()); err != nil {
			return err
		}
		if err := writeAudit(ctx, tx, assess.AuditEntry{Actor: actor, Action: "invite.revoked", TargetType: "invite", TargetID: id}); err != nil {
			return err
		}
		return db.emitInvite(ctx, tx, actor, assess.EventInviteRevoked, id)
	})
}

var errInviteInvalid = &assess.Error{Code: assess.ECodeValidation, Message: "The invitation is invalid, used, revoked or expired.",
	Details: []assess.Detail{{Field: "inviteToken", Code: "invalid"}}}

// Register implements assess.InviteService.
func (db *DB) Register(ctx context.Context, mode string, r assess.Registration, actor assess.Actor) error {
	switch {
	case mode == assess.RegistrationDisabled:
		return &assess.Error{Code: assess.ECodeRegistrationClosed, Message: "Registration is not available on this installation."}
	case mode == assess.RegistrationInviteOnly && strings.TrimSpace(r.InviteToken) == "":
		return &assess.Error{Code: assess.ECodeRegistrationClosed, Message: "An invitation is required to register."}
	}
	if err := r.Validate(db.identity.PasswordMinLength); err != nil {
		return err
	}
	if err := db.refuseBreached(ctx, "password", r.Password); err != nil {
		return err
	}
	hash, err := db.hasher.Hash(ctx, r.Password)
	if err != nil {
		return err
	}
	now := db.now()
	id := assess.NewID(assess.PrefixUser, now)
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		roleID, inviteID, err := db.redeem(ctx, tx, r, id)
		if err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `INSERT INTO users (id, username, email, display_name, password_hash, created_at, updated_at, password_changed_at)
			VALUES ($1, $2, $3, $4, $5, $6, $6, $6) ON CONFLICT DO NOTHING`, id, r.Username, r.Email, r.DisplayName, hash, now)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return errDuplicateAccount // rolls back, so the invite stays unused
		}
		if _, err := tx.Exec(ctx, "INSERT INTO user_roles (user_id, role_id) VALUES ($1, $2)", id, roleID); err != nil {
			return err
		}
		details := map[string]any{"username": r.Username, "mode": mode}
		if inviteID != "" {
			details["invite"] = inviteID
		}
		if err := writeAudit(ctx, tx, assess.AuditEntry{Actor: withID(actor, id), Action: "user.registered", TargetType: "user", TargetID: id, Details: details}); err != nil {
			return err
		}
		return db.emitRegistration(ctx, tx, withID(actor, id), id, inviteID)
	})
	if errors.Is(err, errDuplicateAccount) {
		// Same answer as a success: the caller must not learn that the account exists.
		_ = db.Audit(ctx, assess.AuditEntry{Actor: actor, Action: "user.registration_duplicate", TargetType: "user",
			Details: map[string]any{"username": r.Username}})
		return nil
	}
	if err == nil {
		db.setupComplete.Store(true)
	}
	return err
}

var errDuplicateAccount = errors.New("duplicate account")

// redeem consumes the invite of a registration atomically (two concurrent redemptions
// produce one account), and returns the role to assign: the invite's, or assessee.
func (db *DB) redeem(ctx context.Context, tx pgx.Tx, r assess.Registration, userID string) (roleID, inviteID string, err error) {
	if strings.TrimSpace(r.InviteToken) == "" {
		ids, err := roleIDs(ctx, tx, []string{assess.RoleAssessee})
		if err != nil {
			return "", "", err
		}
		return ids[0], "", nil
	}
	var email *string
	err = tx.QueryRow(ctx, `UPDATE invites SET consumed_at = $2, consumed_by = $3
		WHERE token_hash = $1 AND consumed_at IS NULL AND revoked_at IS NULL AND expires_at > $2
		RETURNING id, role_id, email`, tokenHash(strings.TrimSpace(r.InviteToken)), db.now(), userID).Scan(&inviteID, &roleID, &email)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", "", errInviteInvalid
	}
	if err != nil {
		return "", "", err
	}
	if email != nil && !strings.EqualFold(*email, r.Email) {
		return "", "", &assess.Error{Code: assess.ECodeValidation, Message: "This invitation is for another e-mail address.",
			Details: []assess.Detail{{Field: "email", Code: "invite_email_mismatch"}}}
	}
	return roleID, inviteID, nil
}

// ReconcileRegistrationMode stores the registration mode in force and writes an audit row
// when it differs from the one stored at the previous start.
func (db *DB) ReconcileRegistrationMode(ctx context.Context, mode string) error {
	const key = "registration_mode"
	return db.inTx(ctx, func(tx pgx.Tx) error {
		var last string
		err := tx.QueryRow(ctx, "SELECT value FROM app_config WHERE key = $1 FOR UPDATE", key).Scan(&last)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			_, err = tx.Exec(ctx, "INSERT INTO app_config (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING", key, mode)
			return err
		case err != nil:
			return err
		case last == mode:
			return nil
		}
		if _, err := tx.Exec(ctx, "UPDATE app_config SET value = $2, updated_at = now() WHERE key = $1", key, mode); err != nil {
			return err
		}
		return writeAudit(ctx, tx, assess.AuditEntry{Actor: assess.SystemActor, Action: "config.registration_mode_changed",
			TargetType: "config", TargetID: "REGISTRATION_MODE", Details: map[string]any{"from": last, "to": mode, "source": "startup"}})
	})
}

// PurgeTerminalInvites deletes invites that became consumed, revoked or expired before olderThan.
func (db *DB) PurgeTerminalInvites(ctx context.Context, olderThan time.Time) (int64, error) {
	tag, err := db.pool.Exec(ctx, `DELETE FROM invites WHERE coalesce(consumed_at, revoked_at, expires_at) < $1
		AND (consumed_at IS NOT NULL OR revoked_at IS NOT NULL OR expires_at < $1)`, olderThan)
	return tag.RowsAffected(), err
}

var _ assess.InviteService = (*DB)(nil)
