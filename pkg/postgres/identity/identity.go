package identity

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// errSetupDone refuses a second first administrator.
var errSetupDone = &assess.Error{Code: assess.ECodeConflict, Message: "Setup is already complete: an administrator exists."}

// CreateFirstAdmin implements assess.IdentityService. The account is validated and its
// password hashed before the transaction, so the slow hash holds no connection. The new
// administrator is the actor of their own creation when the request has none.
func (s *IdentityService) CreateFirstAdmin(ctx context.Context, a assess.NewAccount, actor assess.Actor) (assess.User, error) {
	if err := a.Validate(s.cfg.PasswordMinLength); err != nil {
		return assess.User{}, err
	}
	hash, err := s.cfg.checkNewPassword(ctx, "password", a.Password)
	if err != nil {
		return assess.User{}, err
	}
	var u assess.User
	err = s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		// The lock makes two wizards submitted at once create exactly one administrator.
		if _, err := tx.Exec(ctx, "LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE"); err != nil {
			return err
		}
		var exists bool
		if err := tx.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM users)").Scan(&exists); err != nil {
			return err
		}
		if exists {
			return errSetupDone
		}
		id := assess.NewID(assess.PrefixUser, tx.Now)
		if err := insertAccount(ctx, tx, id, a, hash); err != nil {
			return err
		}
		if err := SetRoles(ctx, tx, id, []string{assess.RoleAdmin}); err != nil {
			return err
		}
		if u, err = findUser(ctx, s.db, tx, id); err != nil {
			return err
		}
		return tx.As(withID(tx.Actor, id)).Record(ctx, assess.ChangeSetupCompleted, userTarget(id),
			map[string]any{"username": u.Username}, postgres.UserEvent(u))
	})
	if err != nil {
		return assess.User{}, err
	}
	s.db.SetupSeen.Store(true)
	return u, nil
}

// insertAccount inserts a new account with its password hash; it holds no role yet.
func insertAccount(ctx context.Context, tx *postgres.Tx, id string, a assess.NewAccount, hash string) error {
	_, err := tx.Exec(ctx, `INSERT INTO users (id, username, email, display_name, password_hash, created_at, updated_at, password_changed_at)
		VALUES ($1, $2, $3, $4, $5, $6, $6, $6)`, id, a.Username, a.Email, a.DisplayName, hash, tx.Now)
	return err
}

// withID fills in id as the actor when the request has none (a sign-in, a registration,
// the setup wizard: the account acts on its own behalf).
func withID(a assess.Actor, id string) assess.Actor {
	if a.ID == "" {
		a.ID = id
	}
	return a
}

// Audit implements assess.IdentityService: one audit row for a security event that
// changes nothing else (a refused permission), written on its own.
func (s *IdentityService) Audit(ctx context.Context, e assess.AuditEntry) error {
	e.Actor = postgres.ActorOrAnonymous(e.Actor)
	return postgres.DBError(postgres.WriteAudit(ctx, s.db.Pool, e))
}

// CreateSession implements assess.IdentityService. A new session is a sign-in, whichever
// way it began (the setup wizard's, a password's), so it is the user's last sign-in too.
func (s *IdentityService) CreateSession(ctx context.Context, userID string, lifetime time.Duration, actor assess.Actor) (assess.Session, error) {
	var sess assess.Session
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		sess = assess.Session{ID: assess.NewID(assess.PrefixSession, tx.Now), UserID: userID, ExpiresAt: tx.Now.Add(lifetime)}
		if _, err := tx.Exec(ctx, `INSERT INTO sessions (id, user_id, created_at, expires_at, last_seen_at, ip) VALUES ($1, $2, $3, $4, $3, $5)`,
			sess.ID, sess.UserID, tx.Now, sess.ExpiresAt, tx.Actor.IP); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `UPDATE users SET last_login_at = $2 WHERE id = $1`, userID, tx.Now)
		return err
	})
	return sess, err
}

var errSessionEnded = &assess.Error{Code: assess.ECodeUnauthenticated, Message: "The session has ended; sign in again."}

// SessionPrincipal implements assess.IdentityService: the session must exist, be neither
// revoked nor expired, and belong to an active user; permissions are read fresh, so a
// role change applies at the next request.
func (s *IdentityService) SessionPrincipal(ctx context.Context, sessionID string) (*assess.Principal, error) {
	key := postgres.SessionCacheKey(sessionID)
	cached, _, gen, ok := s.db.Creds.Get(key)
	if ok {
		return cached, nil
	}
	p := &assess.Principal{SessionID: sessionID}
	u := &p.User
	var expires time.Time
	err := s.db.Pool.QueryRow(ctx, `SELECT u.id, u.username, u.email, u.display_name, u.active, u.version, u.created_at, u.last_login_at, s.expires_at
		FROM sessions s JOIN users u ON u.id = s.user_id
		WHERE s.id = $1 AND s.revoked_at IS NULL AND s.expires_at > $2 AND u.active`, sessionID, s.db.Now()).
		Scan(&u.ID, &u.Username, &u.Email, &u.DisplayName, &u.Active, &u.Version, &u.CreatedAt, &u.LastLoginAt, &expires)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, errSessionEnded
	}
	if err != nil {
		return nil, postgres.DBError(err)
	}
	if err := fillPermissions(ctx, s.db.Pool, p); err != nil {
		return nil, postgres.DBError(err)
	}
	s.db.Creds.Put(key, gen, p, expires, time.Time{})
	return p, nil
}

// fillPermissions reads the roles of the principal's user and the union of their
// permissions.
func fillPermissions(ctx context.Context, q postgres.Querier, p *assess.Principal) error {
	rows, err := q.Query(ctx, `SELECT r.name, coalesce(array_agg(rp.permission) FILTER (WHERE rp.permission IS NOT NULL), '{}')
		FROM user_roles ur JOIN roles r ON r.id = ur.role_id LEFT JOIN role_permissions rp ON rp.role_id = r.id
		WHERE ur.user_id = $1 GROUP BY r.name ORDER BY r.name`, p.User.ID)
	if err != nil {
		return err
	}
	defer rows.Close()
	p.User.Roles = []string{}
	for rows.Next() {
		var name string
		var perms []string
		if err := rows.Scan(&name, &perms); err != nil {
			return err
		}
		p.User.Roles = append(p.User.Roles, name)
		p.Permissions = append(p.Permissions, perms...)
	}
	slices.Sort(p.Permissions)
	p.Permissions = slices.Compact(p.Permissions)
	return rows.Err()
}

// RevokeSession implements assess.IdentityService.
func (s *IdentityService) RevokeSession(ctx context.Context, sessionID string, actor assess.Actor) error {
	return s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE sessions SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL`, sessionID, tx.Now); err != nil {
			return err
		}
		if err := tx.Invalidate(ctx, postgres.SessionCredential(sessionID)); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeAuthLogout, postgres.Target{Type: "session", ID: sessionID}, nil, assess.NewEvent{})
	})
}

var errCurrentPassword = &assess.Error{Code: assess.ECodeValidation, Message: "The current password is incorrect.",
	Details: []assess.Detail{{Field: "currentPassword", Code: "incorrect", Message: "The current password is incorrect."}}}

// ChangePassword implements assess.IdentityService. The new password is validated and
// the current one verified before the transaction, so the slow hashing holds no
// connection; the caller's other sessions end with the change.
func (s *IdentityService) ChangePassword(ctx context.Context, p *assess.Principal, c assess.PasswordChange, actor assess.Actor) error {
	if err := c.Validate(s.cfg.PasswordMinLength); err != nil {
		return err
	}
	if err := s.cfg.refuseBreached(ctx, "newPassword", c.NewPassword); err != nil {
		return err
	}
	var hash string
	if err := s.db.Pool.QueryRow(ctx, "SELECT coalesce(password_hash, '') FROM users WHERE id = $1", p.User.ID).Scan(&hash); err != nil {
		return postgres.DBError(err)
	}
	if ok, _ := s.cfg.Hasher.Verify(ctx, c.CurrentPassword, hash); !ok {
		return errCurrentPassword
	}
	newHash, err := s.cfg.Hasher.Hash(ctx, c.NewPassword) // only once the current password is right
	if err != nil {
		return err
	}
	return s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE users SET password_hash = $2, password_changed_at = $3, updated_at = $3, version = version + 1 WHERE id = $1`,
			p.User.ID, newHash, tx.Now); err != nil {
			return err
		}
		// Other sessions end: whoever knew the old password is signed out everywhere else.
		if _, err := tx.Exec(ctx, `UPDATE sessions SET revoked_at = $3 WHERE user_id = $1 AND id <> $2 AND revoked_at IS NULL`,
			p.User.ID, p.SessionID, tx.Now); err != nil {
			return err
		}
		if err := tx.Invalidate(ctx, postgres.UserCredentials(p.User.ID)); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeUserPasswordChanged, userTarget(p.User.ID), nil, assess.NewEvent{})
	})
}

// UpdateProfile implements assess.IdentityService: the e-mail address and display name
// of one's own account, under optimistic concurrency, audited and announced as any
// account update is.
func (s *IdentityService) UpdateProfile(ctx context.Context, userID string, upd assess.ProfileUpdate, actor assess.Actor) (assess.User, error) {
	if !assess.ValidID(assess.PrefixUser, userID) {
		return assess.User{}, errUserNotFound
	}
	var after assess.User
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := upd.Validate(); err != nil {
			return err
		}
		if err := tx.LockVersion(ctx, "users", userID, upd.Version, errUserNotFound); err != nil {
			return err
		}
		before, err := findUser(ctx, s.db, tx, userID)
		if err != nil {
			return err
		}
		changes := upd.UserUpdate()
		if err := applyUserUpdate(ctx, tx, userID, changes); err != nil {
			return err
		}
		if err := tx.BumpVersion(ctx, "users", userID); err != nil {
			return err
		}
		if err := tx.Record(ctx, assess.ChangeUserUpdated, userTarget(userID), map[string]any{
			"before":  map[string]any{"email": before.Email, "displayName": before.DisplayName, "active": before.Active, "roles": before.Roles},
			"changes": changes}, assess.NewEvent{}); err != nil {
			return err
		}
		after, err = announceUserChanges(ctx, tx, before)
		return err
	})
	return after, err
}

var _ assess.IdentityService = (*IdentityService)(nil)
