package identity

import (
	"context"
	"errors"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

var errInviteInvalid = &assess.Error{Code: assess.ECodeValidation, Message: "The invitation is invalid, used, revoked or expired.",
	Details: []assess.Detail{{Field: "inviteToken", Code: "invalid"}}}

// errDuplicateAccount rolls a registration back when the username or e-mail is taken.
var errDuplicateAccount = errors.New("duplicate account")

// registrationOpen applies REGISTRATION_MODE to a registration.
func registrationOpen(mode string, r assess.Registration) error {
	switch {
	case mode == assess.RegistrationDisabled:
		return &assess.Error{Code: assess.ECodeRegistrationClosed, Message: "Registration is not available on this installation."}
	case mode == assess.RegistrationInviteOnly && strings.TrimSpace(r.InviteToken) == "":
		return &assess.Error{Code: assess.ECodeRegistrationClosed, Message: "An invitation is required to register."}
	}
	return nil
}

// Register implements assess.InviteService. The account is validated and its password
// hashed before the transaction, so the slow hash holds no connection. A taken username
// or e-mail gets the answer of a success (and an audit row of its own), so the caller
// cannot learn that the account exists.
func (s *InviteService) Register(ctx context.Context, mode string, r assess.Registration, actor assess.Actor) error {
	if err := registrationOpen(mode, r); err != nil {
		return err
	}
	if err := r.Validate(s.cfg.PasswordMinLength); err != nil {
		return err
	}
	hash, err := s.cfg.checkNewPassword(ctx, "password", r.Password)
	if err != nil {
		return err
	}
	err = s.db.Change(ctx, actor, func(tx *postgres.Tx) error { return register(ctx, tx, mode, r, hash) })
	if errors.Is(err, errDuplicateAccount) {
		_ = s.db.Change(ctx, postgres.ActorOrAnonymous(actor), func(tx *postgres.Tx) error {
			return tx.Record(ctx, assess.ChangeUserRegistrationDuplicate, userTarget(""), map[string]any{"username": r.Username}, assess.NewEvent{})
		})
		return nil
	}
	if err == nil {
		s.db.SetupSeen.Store(true)
	}
	return err
}

// register creates the account of a registration in tx, redeeming its invite. The new
// user is the actor of their own registration; user.created is announced and, for an
// invite, invite.consumed (told to its creator).
func register(ctx context.Context, tx *postgres.Tx, mode string, r assess.Registration, hash string) error {
	id := assess.NewID(assess.PrefixUser, tx.Now)
	role, inv, err := redeem(ctx, tx, r, id)
	if err != nil {
		return err
	}
	tag, err := tx.Exec(ctx, `INSERT INTO users (id, username, email, display_name, password_hash, created_at, updated_at, password_changed_at)
		VALUES ($1, $2, $3, $4, $5, $6, $6, $6) ON CONFLICT DO NOTHING`, id, r.Username, r.Email, r.DisplayName, hash, tx.Now)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return errDuplicateAccount // rolls back, so the invite stays unused
	}
	if err := SetRoles(ctx, tx, id, []string{role}); err != nil {
		return err
	}
	self := tx.As(withID(tx.Actor, id))
	details := map[string]any{"username": r.Username, "mode": mode}
	if inv == "" {
		return RecordUser(ctx, self, assess.ChangeUserRegistered, id, details)
	}
	details["invite"] = inv
	if err := RecordUser(ctx, self, assess.ChangeUserRegistered, id, details); err != nil {
		return err
	}
	consumed, err := findInvite(ctx, tx, inv)
	if err != nil {
		return err
	}
	return self.Announce(ctx, assess.EventInviteConsumed, postgres.InviteEvent(consumed))
}

// redeem consumes the invite of a registration, as InviteLifecycle allows (two
// concurrent redemptions produce one account), and returns the role to assign: the
// invite's, or assessee without one. Any invite that cannot be consumed gets the same
// answer, so a token reveals nothing about why.
func redeem(ctx context.Context, tx *postgres.Tx, r assess.Registration, userID string) (role, inviteID string, err error) {
	if r.InviteToken == "" {
		return assess.RoleAssessee, "", nil
	}
	inv, err := lockInvite(ctx, tx, "i.token_hash = $1", tokenHash(r.InviteToken))
	if errors.Is(err, pgx.ErrNoRows) {
		return "", "", errInviteInvalid
	}
	if err != nil {
		return "", "", err
	}
	if assess.InviteLifecycle.Check(inv.Status, assess.InviteConsumed) != nil {
		return "", "", errInviteInvalid
	}
	if inv.Email != "" && !strings.EqualFold(inv.Email, r.Email) {
		return "", "", &assess.Error{Code: assess.ECodeValidation, Message: "This invitation is for another e-mail address.",
			Details: []assess.Detail{{Field: "email", Code: "invite_email_mismatch"}}}
	}
	if _, err := tx.Exec(ctx, "UPDATE invites SET consumed_at = $2, consumed_by = $3 WHERE id = $1", inv.ID, tx.Now, userID); err != nil {
		return "", "", err
	}
	return inv.IntendedRole, inv.ID, nil
}

// ReconcileRegistrationMode stores the registration mode in force and audits, as the
// system, a mode that differs from the one stored at the previous start.
func (s *InviteService) ReconcileRegistrationMode(ctx context.Context, mode string) error {
	const key = "registration_mode"
	return s.db.Change(ctx, assess.SystemActor, func(tx *postgres.Tx) error {
		var last string
		// app_config rows have no version: the row lock makes servers starting at once
		// audit one change, not one each.
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
		if _, err := tx.Exec(ctx, "UPDATE app_config SET value = $2, updated_at = $3 WHERE key = $1", key, mode, tx.Now); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeRegistrationModeChanged, postgres.Target{Type: "config", ID: "REGISTRATION_MODE"},
			map[string]any{"from": last, "to": mode, "source": "startup"}, assess.NewEvent{})
	})
}
