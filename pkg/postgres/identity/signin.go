package identity

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/secret"
)

// loginAccount is what a sign-in reads about the account it names.
type loginAccount struct {
	id          string
	active      bool
	hash        *string
	lockedUntil *time.Time
}

// findLoginAccount reads the account a login (username, else e-mail address) names;
// pgx.ErrNoRows when none does.
func findLoginAccount(ctx context.Context, q postgres.Querier, login string) (loginAccount, error) {
	var a loginAccount
	err := q.QueryRow(ctx, `SELECT id, active, password_hash, locked_until FROM users
		WHERE lower(username) = lower($1) OR lower(email) = lower($1) ORDER BY lower(username) = lower($1) DESC LIMIT 1`, login).
		Scan(&a.id, &a.active, &a.hash, &a.lockedUntil)
	return a, err
}

// Authenticate implements assess.IdentityService. Every failure is the same
// ErrBadCredentials and costs the same password verification, so neither the answer nor
// its timing tells whether an account exists, is locked or is inactive. The account is
// read and the password verified outside any transaction (the hash is slow); the
// bookkeeping of the outcome is one change.
func (s *IdentityService) Authenticate(ctx context.Context, login, password string, actor assess.Actor) (assess.User, error) {
	a, err := findLoginAccount(ctx, s.db.Pool, login)
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && a.hash == nil) {
		s.cfg.Hasher.DummyVerify(ctx, password)
		return assess.User{}, s.loginRefused(ctx, actor, "", "unknown_user")
	}
	if err != nil {
		return assess.User{}, postgres.DBError(err)
	}
	if a.lockedUntil != nil && a.lockedUntil.After(s.db.Now()) {
		s.cfg.Hasher.DummyVerify(ctx, password)
		return assess.User{}, s.loginRefused(ctx, actor, a.id, "locked")
	}
	ok, err := s.cfg.Hasher.Verify(ctx, password, *a.hash)
	if err != nil && !errors.Is(err, secret.ErrMalformedHash) {
		return assess.User{}, err
	}
	switch {
	case !ok:
		return assess.User{}, s.wrongPassword(ctx, a.id, actor)
	case !a.active: // the right password, but the account may not sign in; not counted
		return assess.User{}, s.loginRefused(ctx, actor, a.id, "inactive")
	}
	var u assess.User
	err = s.db.Change(ctx, withID(actor, a.id), func(tx *postgres.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE users SET failed_logins = 0, locked_until = NULL, last_login_at = $2 WHERE id = $1`, a.id, tx.Now); err != nil {
			return err
		}
		if u, err = findUser(ctx, s.db, tx, a.id); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeAuthLogin, userTarget(a.id), nil, assess.NewEvent{})
	})
	return u, err
}

// loginRefused audits a refused sign-in that changes nothing (unknown user, locked or
// inactive account) and answers ErrBadCredentials whatever the audit's outcome, so the
// answer stays the same.
func (s *IdentityService) loginRefused(ctx context.Context, actor assess.Actor, userID, reason string) error {
	_ = s.db.Change(ctx, postgres.ActorOrAnonymous(actor), func(tx *postgres.Tx) error {
		return tx.Record(ctx, assess.ChangeAuthLoginFailed, userTarget(userID), map[string]any{"reason": reason}, assess.NewEvent{})
	})
	return assess.ErrBadCredentials
}

// wrongPassword counts a wrong password and locks the account when the count reaches
// the limit (LOGIN_MAX_FAILED_ATTEMPTS; 0 never locks). The lock is the service's own
// action: auth.lockout is recorded, and user.locked announced, as the system.
func (s *IdentityService) wrongPassword(ctx context.Context, userID string, actor assess.Actor) error {
	maxFailed := s.cfg.MaxFailedLogins
	err := s.db.Change(ctx, postgres.ActorOrAnonymous(actor), func(tx *postgres.Tx) error {
		var failed int
		var lockedUntil *time.Time
		err := tx.QueryRow(ctx, `UPDATE users SET
			failed_logins = CASE WHEN $2 > 0 AND failed_logins + 1 >= $2 THEN 0 ELSE failed_logins + 1 END,
			locked_until = CASE WHEN $2 > 0 AND failed_logins + 1 >= $2 THEN $3::timestamptz ELSE locked_until END
			WHERE id = $1 RETURNING failed_logins, locked_until`, userID, maxFailed, tx.Now.Add(s.cfg.LockoutDuration)).Scan(&failed, &lockedUntil)
		if err != nil {
			return err
		}
		if err := tx.Record(ctx, assess.ChangeAuthLoginFailed, userTarget(userID), map[string]any{"reason": "wrong_password"}, assess.NewEvent{}); err != nil {
			return err
		}
		if lockedUntil == nil || !lockedUntil.After(tx.Now) || failed != 0 {
			return nil
		}
		system := assess.SystemActor
		system.IP, system.RequestID = tx.Actor.IP, tx.Actor.RequestID // where the attempts came from
		return RecordUser(ctx, tx.As(system), assess.ChangeAuthLockout, userID,
			map[string]any{"lockedUntil": lockedUntil.UTC(), "attempts": maxFailed})
	})
	if err != nil {
		return err
	}
	return assess.ErrBadCredentials
}
