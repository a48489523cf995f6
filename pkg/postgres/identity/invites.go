package identity

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

var errInviteNotFound = &assess.Error{Code: assess.ECodeNotFound, Message: "No such invite."}

func tokenHash(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}

// newToken returns a random single-use token (invites, password resets); only its
// SHA-256 is stored.
func newToken() (string, error) {
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(raw), nil
}

const inviteColumns = `i.id, coalesce(i.email, ''), r.name, i.created_by, i.created_at, i.expires_at, i.consumed_at, i.revoked_at`

const inviteRows = "SELECT " + inviteColumns + " FROM invites i JOIN roles r ON r.id = i.role_id"

// scanInvite reads an invite as the API shows it, its status derived at time now.
func scanInvite(row pgx.Row, now time.Time) (assess.Invite, error) {
	var i assess.Invite
	err := row.Scan(&i.ID, &i.Email, &i.IntendedRole, &i.CreatedBy, &i.CreatedAt, &i.ExpiresAt, &i.ConsumedAt, &i.RevokedAt)
	i.CreatedAt, i.ExpiresAt, i.ConsumedAt, i.RevokedAt = i.CreatedAt.UTC(), i.ExpiresAt.UTC(), postgres.UTCPtr(i.ConsumedAt), postgres.UTCPtr(i.RevokedAt)
	i.Status = assess.InviteStatus(i.ConsumedAt, i.RevokedAt, i.ExpiresAt, now)
	return i, err
}

// lockInvite reads the invite matching cond (on alias i, its one parameter arg) and locks
// it for the rest of the transaction: invites have no version to compare, and the lock
// makes a revocation and a redemption of one invite, or two redemptions, take turns, so
// each sees the state the other left. pgx.ErrNoRows when none matches.
func lockInvite(ctx context.Context, tx *postgres.Tx, cond string, arg any) (assess.Invite, error) {
	return scanInvite(tx.QueryRow(ctx, inviteRows+" WHERE "+cond+" FOR UPDATE OF i", arg), tx.Now)
}

// findInvite reads an invite inside tx, as the change leaves it.
func findInvite(ctx context.Context, tx *postgres.Tx, id string) (assess.Invite, error) {
	return scanInvite(tx.QueryRow(ctx, inviteRows+" WHERE i.id = $1", id), tx.Now)
}

// inviteTarget names an invite in the audit log.
func inviteTarget(id string) postgres.Target { return postgres.Target{Type: "invite", ID: id} }

// CreateInvite implements assess.InviteService. The token is returned once; only its
// SHA-256 is stored. An invite to be e-mailed queues the e-mail in the same transaction.
func (s *InviteService) CreateInvite(ctx context.Context, in assess.NewInvite, actor assess.Actor) (assess.Invite, string, error) {
	token, err := newToken()
	if err != nil {
		return assess.Invite{}, "", err
	}
	var inv assess.Invite
	err = s.db.ChangeGeneric(ctx, actor, func(tx *postgres.Tx) error {
		if err := in.Validate(); err != nil {
			return err
		}
		inv = assess.Invite{ID: assess.NewID(assess.PrefixInvite, tx.Now), Email: in.Email, IntendedRole: in.IntendedRole,
			Status: assess.InviteUnused, CreatedBy: tx.Actor.ID, CreatedAt: tx.Now.UTC(),
			ExpiresAt: tx.Now.Add(time.Duration(in.ExpiresInHours) * time.Hour).UTC()}
		var email *string
		if in.Email != "" {
			email = &in.Email
		}
		// The role is resolved by the insert itself: no row inserted means no such role, and
		// the change, its audit row and event sent with it in one round trip, rolls back.
		insert := postgres.Statement{SQL: `INSERT INTO invites (id, email, role_id, token_hash, created_by, created_at, expires_at)
			SELECT $1::text, $2::text, r.id, $4::bytea, $5::text, $6::timestamptz, $7::timestamptz FROM roles r WHERE r.name = $3`,
			Args: []any{inv.ID, email, in.IntendedRole, tokenHash(token), inv.CreatedBy, tx.Now, inv.ExpiresAt},
			Check: func(tag pgconn.CommandTag) error {
				if tag.RowsAffected() == 0 {
					return unknownInviteRole(in.IntendedRole)
				}
				return nil
			}}
		if err := tx.Record(ctx, assess.ChangeInviteCreated, inviteTarget(inv.ID), map[string]any{"email": in.Email,
			"intendedRole": in.IntendedRole, "expiresAt": inv.ExpiresAt, "sendEmail": in.SendEmail}, postgres.InviteEvent(inv), insert); err != nil {
			return err
		}
		if in.SendEmail {
			return s.queueInviteEmail(ctx, tx, inv, token)
		}
		return nil
	})
	if err != nil {
		return assess.Invite{}, "", err
	}
	return inv, token, nil
}

// unknownInviteRole answers an invite for a role that does not exist, on the request's
// intendedRole field.
func unknownInviteRole(name string) error {
	return &assess.Error{Code: assess.ECodeValidation, Message: "Unknown role " + name + ".",
		Details: []assess.Detail{{Field: "intendedRole", Code: "unknown_role", Message: "Unknown role " + name + "."}}}
}

// FindInvites implements assess.InviteService: newest first, keyset paginated on the id.
func (s *InviteService) FindInvites(ctx context.Context, f assess.InviteFilter) (assess.Page[assess.Invite], error) {
	now := s.db.Now()
	l := postgres.NewList("invites", inviteRows, postgres.NewestFirst("i.id"))
	scan := func(row pgx.Row) (assess.Invite, error) { return scanInvite(row, now) }
	return postgres.CollectPage(ctx, s.db.Pool, l, f.PageRequest, scan, func(i assess.Invite) []any { return []any{i.ID} })
}

// RevokeInvite implements assess.InviteService, as InviteLifecycle allows: an unused
// invite ends; revoking a revoked one again succeeds without change (so a retried
// request is harmless); a consumed or expired invite answers 409 invalid_state_transition.
func (s *InviteService) RevokeInvite(ctx context.Context, id string, actor assess.Actor) error {
	if !assess.ValidID(assess.PrefixInvite, id) {
		return errInviteNotFound
	}
	return s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		inv, err := lockInvite(ctx, tx, "i.id = $1", id)
		if errors.Is(err, pgx.ErrNoRows) {
			return errInviteNotFound
		}
		if err != nil || inv.Status == assess.InviteRevoked {
			return err
		}
		if err := assess.InviteLifecycle.Check(inv.Status, assess.InviteRevoked); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "UPDATE invites SET revoked_at = $2 WHERE id = $1", id, tx.Now); err != nil {
			return err
		}
		if inv, err = findInvite(ctx, tx, id); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeInviteRevoked, inviteTarget(id), nil, postgres.InviteEvent(inv))
	})
}

var _ assess.InviteService = (*InviteService)(nil)
