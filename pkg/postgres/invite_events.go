package postgres

import (
	"context"
	"errors"
	"net/mail"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

// checkInviteEmail checks the address of an invite that is to be e-mailed.
func checkInviteEmail(in assess.NewInvite) error {
	if !in.SendEmail {
		return nil
	}
	if in.Email == "" {
		return ruleRefused("email", "email_required", "An invitation can be e-mailed only to an address; enter one.")
	}
	if a, err := mail.ParseAddress(in.Email); err != nil || a.Address != in.Email {
		return ruleInvalid("email", "invalid", "A valid e-mail address is required.")
	}
	return nil
}

// queueInviteEmail queues the e-mail with the invitation link; its parameters (the
// token among them) are stored sealed. With e-mail switched off the invite is refused.
func (db *DB) queueInviteEmail(ctx context.Context, tx pgx.Tx, inv assess.Invite, token string, actor assess.Actor) error {
	on, err := db.emailOn(ctx, tx)
	if err != nil || !on {
		return cmpErr(err, errEmailDisabled)
	}
	inviter, err := actorName(ctx, tx, actor.ID)
	if err != nil {
		return err
	}
	params := map[string]string{"token": token, "role": inv.IntendedRole, "expiresAt": inv.ExpiresAt.UTC().Format(time.RFC3339),
		"inviter": inviter}
	_, err = db.queueDeliveries(ctx, tx, []newDelivery{directEmail(inv.Email, "You are invited to Assay", assess.EmailTemplateInvite, params)})
	return err
}

// findInvite reads an invite as the API shows it, inside tx.
func (db *DB) findInvite(ctx context.Context, tx pgx.Tx, id string) (assess.Invite, error) {
	var i assess.Invite
	err := tx.QueryRow(ctx, `SELECT i.id, coalesce(i.email, ''), r.name, i.created_by, i.created_at, i.expires_at, i.consumed_at, i.revoked_at
		FROM invites i JOIN roles r ON r.id = i.role_id WHERE i.id = $1`, id).
		Scan(&i.ID, &i.Email, &i.IntendedRole, &i.CreatedBy, &i.CreatedAt, &i.ExpiresAt, &i.ConsumedAt, &i.RevokedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return i, errInviteNotFound
	}
	i.CreatedAt, i.ExpiresAt, i.ConsumedAt, i.RevokedAt = i.CreatedAt.UTC(), i.ExpiresAt.UTC(), utcPtr(i.ConsumedAt), utcPtr(i.RevokedAt)
	i.Status = assess.InviteStatus(i.ConsumedAt, i.RevokedAt, i.ExpiresAt, db.now())
	return i, err
}

// emitInvite reads the invite inside tx and emits an event of typ about it.
func (db *DB) emitInvite(ctx context.Context, tx pgx.Tx, actor assess.Actor, typ assess.EventName, id string) error {
	inv, err := db.findInvite(ctx, tx, id)
	if err != nil {
		return err
	}
	_, err = db.emit(ctx, tx, actor, withType(typ, inviteEvent(inv)))
	return err
}

// emitRegistration emits user.created for a self-registered account and, when an invite
// was redeemed, invite.consumed (told to its creator).
func (db *DB) emitRegistration(ctx context.Context, tx pgx.Tx, actor assess.Actor, userID, inviteID string) error {
	if err := db.emitUser(ctx, tx, actor, assess.EventUserCreated, userID); err != nil {
		return err
	}
	if inviteID == "" {
		return nil
	}
	return db.emitInvite(ctx, tx, actor, assess.EventInviteConsumed, inviteID)
}
