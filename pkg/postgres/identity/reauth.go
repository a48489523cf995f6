package identity

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/secret"
)

// ConfirmPassword checks the current password of a signed-in user again before an
// operation that must not rest on a session alone (a signature made on the server with a
// key the service holds for them). It is sign-in's check: a wrong password is counted
// with the failed sign-ins and locks the account at LOGIN_MAX_FAILED_ATTEMPTS, a locked
// account is refused without looking at the password, and the right password clears the
// count. The password is verified outside any transaction (the hash is slow). Wrong:
// assess.ErrSigningPasswordIncorrect; locked: assess.ErrSigningPasswordLocked.
func (s *IdentityService) ConfirmPassword(ctx context.Context, userID, password string, actor assess.Actor) error {
	var a loginAccount
	err := s.db.Pool.QueryRow(ctx, "SELECT id, active, password_hash, locked_until FROM users WHERE id = $1", userID).
		Scan(&a.id, &a.active, &a.hash, &a.lockedUntil)
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && (a.hash == nil || !a.active)) {
		s.cfg.Hasher.DummyVerify(ctx, password)
		return assess.ErrSigningPasswordIncorrect
	}
	if err != nil {
		return postgres.DBError(err)
	}
	if a.lockedUntil != nil && a.lockedUntil.After(s.db.Now()) {
		s.cfg.Hasher.DummyVerify(ctx, password)
		return assess.ErrSigningPasswordLocked
	}
	ok, err := s.cfg.Hasher.Verify(ctx, password, *a.hash)
	if err != nil && !errors.Is(err, secret.ErrMalformedHash) {
		return err
	}
	if ok {
		// The right password clears the wrong ones counted before it, as a sign-in does:
		// otherwise mistakes spread over weeks would add up to a lockout. A write only
		// when there is a count to clear.
		_, err := s.db.Pool.Exec(ctx, "UPDATE users SET failed_logins = 0, locked_until = NULL WHERE id = $1 AND failed_logins > 0", a.id)
		return postgres.DBError(err)
	}
	if err := s.wrongPassword(ctx, a.id, actor); !errors.Is(err, assess.ErrBadCredentials) {
		return err
	}
	return assess.ErrSigningPasswordIncorrect
}
