package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/secret"
)

// IdentityConfig holds the account policies.
type IdentityConfig struct {
	PasswordMinLength int           // PASSWORD_MIN_LENGTH
	MaxFailedLogins   int           // LOGIN_MAX_FAILED_ATTEMPTS; 0 disables lockout
	LockoutDuration   time.Duration // LOGIN_LOCKOUT_DURATION_MINUTES
	// Breaches checks new passwords against a breached-password range service; nil
	// disables the check (PASSWORD_HIBP_CHECK_ENABLED).
	Breaches *secret.BreachChecker
}

// refuseBreached fails when a new password is known from a breach.
func (db *DB) refuseBreached(ctx context.Context, field, password string) error {
	if db.identity.Breaches == nil || !db.identity.Breaches.Breached(ctx, password) {
		return nil
	}
	return &assess.Error{Code: assess.ECodeValidation, Message: "This password appears in a known data breach; choose another.",
		Details: []assess.Detail{{Field: field, Code: "breached", Message: "This password appears in a known data breach."}}}
}

// ConfigureIdentity sets the account policies and the password hasher.
func (db *DB) ConfigureIdentity(cfg IdentityConfig, hasher *secret.Hasher) *DB {
	db.identity, db.hasher = cfg, hasher
	return db
}

// SyncBuiltinRoles creates the built-in roles and sets their permission sets to what this
// version of the service defines. Run at start; concurrent runs serialise on a lock.
func (db *DB) SyncBuiltinRoles(ctx context.Context) error {
	return db.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", int64(0x61737361793a726c)); err != nil {
			return err
		}
		for _, r := range assess.BuiltinRoles() {
			var id string
			err := tx.QueryRow(ctx, `INSERT INTO roles (id, name, description, builtin) VALUES ($1, $2, $3, true)
				ON CONFLICT (name) DO UPDATE SET description = EXCLUDED.description, builtin = true
				RETURNING id`, assess.NewID(assess.PrefixRole, db.now()), r.Name, r.Description).Scan(&id)
			if err != nil {
				return fmt.Errorf("sync role %s: %w", r.Name, err)
			}
			if _, err := tx.Exec(ctx, `DELETE FROM role_permissions WHERE role_id = $1 AND NOT permission = ANY($2)`, id, r.Permissions); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `INSERT INTO role_permissions (role_id, permission) SELECT $1, unnest($2::text[])
				ON CONFLICT DO NOTHING`, id, r.Permissions); err != nil {
				return err
			}
		}
		return nil
	})
}

// CreateFirstAdmin implements assess.IdentityService.
func (db *DB) CreateFirstAdmin(ctx context.Context, a assess.NewAccount, actor assess.Actor) (assess.User, error) {
	if err := a.Validate(db.identity.PasswordMinLength); err != nil {
		return assess.User{}, err
	}
	if err := db.refuseBreached(ctx, "password", a.Password); err != nil {
		return assess.User{}, err
	}
	hash, err := db.hasher.Hash(ctx, a.Password)
	if err != nil {
		return assess.User{}, err
	}
	var u assess.User
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		// The lock makes two wizards submitted at once create exactly one administrator.
		if _, err := tx.Exec(ctx, "LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE"); err != nil {
			return err
		}
		var exists bool
		if err := tx.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM users)").Scan(&exists); err != nil {
			return err
		}
		if exists {
			return &assess.Error{Code: assess.ECodeConflict, Message: "Setup is already complete: an administrator exists."}
		}
		now := db.now()
		u = assess.User{ID: assess.NewID(assess.PrefixUser, now), Username: a.Username, Email: a.Email,
			DisplayName: a.DisplayName, Active: true, Roles: []string{assess.RoleAdmin}, Version: 1, CreatedAt: now.UTC()}
		if _, err := tx.Exec(ctx, `INSERT INTO users (id, username, email, display_name, password_hash, created_at, updated_at, password_changed_at)
			VALUES ($1, $2, $3, $4, $5, $6, $6, $6)`, u.ID, u.Username, u.Email, u.DisplayName, hash, now); err != nil {
			return mapUniqueViolation(err, "username or e-mail")
		}
		tag, err := tx.Exec(ctx, `INSERT INTO user_roles (user_id, role_id) SELECT $1, id FROM roles WHERE name = $2`, u.ID, assess.RoleAdmin)
		if err != nil {
			return err
		}
		if tag.RowsAffected() != 1 {
			return errors.New("built-in role admin is missing: SyncBuiltinRoles must run at start")
		}
		if actor.ID == "" {
			actor.ID = u.ID
		}
		if err := writeAudit(ctx, tx, assess.AuditEntry{Actor: actor, Action: "setup.completed", TargetType: "user", TargetID: u.ID,
			Details: map[string]any{"username": u.Username}}); err != nil {
			return err
		}
		return db.emitUser(ctx, tx, actor, assess.EventUserCreated, u.ID)
	})
	if err != nil {
		return assess.User{}, err
	}
	db.setupComplete.Store(true)
	return u, nil
}

// Authenticate implements assess.IdentityService. Every failure is the same
// ErrBadCredentials and costs the same password verification, so neither the answer nor
// its timing tells whether an account exists, is locked or is inactive.
func (db *DB) Authenticate(ctx context.Context, login, password string, actor assess.Actor) (assess.User, error) {
	var (
		u        assess.User
		hash     *string
		failed   int
		locked   *time.Time
		lastSeen *time.Time
	)
	err := db.pool.QueryRow(ctx, `SELECT id, username, email, display_name, active, version, created_at, last_login_at,
		password_hash, failed_logins, locked_until FROM users
		WHERE lower(username) = lower($1) OR lower(email) = lower($1) ORDER BY lower(username) = lower($1) DESC LIMIT 1`, login).
		Scan(&u.ID, &u.Username, &u.Email, &u.DisplayName, &u.Active, &u.Version, &u.CreatedAt, &lastSeen, &hash, &failed, &locked)
	now := db.now()
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && hash == nil) {
		db.hasher.DummyVerify(ctx, password)
		_ = db.Audit(ctx, assess.AuditEntry{Actor: actor, Action: "auth.login_failed", TargetType: "user",
			Details: map[string]any{"reason": "unknown_user"}})
		return assess.User{}, assess.ErrBadCredentials
	}
	if err != nil {
		return assess.User{}, err
	}
	if locked != nil && locked.After(now) {
		db.hasher.DummyVerify(ctx, password)
		_ = db.Audit(ctx, assess.AuditEntry{Actor: actor, Action: "auth.login_failed", TargetType: "user", TargetID: u.ID,
			Details: map[string]any{"reason": "locked"}})
		return assess.User{}, assess.ErrBadCredentials
	}
	ok, err := db.hasher.Verify(ctx, password, *hash)
	if err != nil && !errors.Is(err, secret.ErrMalformedHash) {
		return assess.User{}, err
	}
	if !ok || !u.Active {
		return assess.User{}, db.loginFailed(ctx, u, ok, actor)
	}
	if _, err := db.pool.Exec(ctx, `UPDATE users SET failed_logins = 0, locked_until = NULL, last_login_at = $2 WHERE id = $1`, u.ID, now); err != nil {
		return assess.User{}, err
	}
	u.LastLoginAt = &now
	if u.Roles, err = db.userRoles(ctx, u.ID); err != nil {
		return assess.User{}, err
	}
	return u, db.Audit(ctx, assess.AuditEntry{Actor: withID(actor, u.ID), Action: "auth.login", TargetType: "user", TargetID: u.ID})
}

// loginFailed counts a wrong password and locks the account when the count reaches the
// limit; an inactive account with the right password is refused without counting. The
// lock is the service's own action: user.locked is emitted as the system, about the user.
func (db *DB) loginFailed(ctx context.Context, u assess.User, passwordOK bool, actor assess.Actor) error {
	if passwordOK { // inactive
		_ = db.Audit(ctx, assess.AuditEntry{Actor: actor, Action: "auth.login_failed", TargetType: "user", TargetID: u.ID,
			Details: map[string]any{"reason": "inactive"}})
		return assess.ErrBadCredentials
	}
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		max := db.identity.MaxFailedLogins
		var failed int
		var lockedUntil *time.Time
		err := tx.QueryRow(ctx, `UPDATE users SET
			failed_logins = CASE WHEN $2 > 0 AND failed_logins + 1 >= $2 THEN 0 ELSE failed_logins + 1 END,
			locked_until = CASE WHEN $2 > 0 AND failed_logins + 1 >= $2 THEN $3::timestamptz ELSE locked_until END
			WHERE id = $1 RETURNING failed_logins, locked_until`, u.ID, max, db.now().Add(db.identity.LockoutDuration)).Scan(&failed, &lockedUntil)
		if err != nil {
			return err
		}
		if err := writeAudit(ctx, tx, assess.AuditEntry{Actor: actorOrAnonymous(actor), Action: "auth.login_failed", TargetType: "user",
			TargetID: u.ID, Details: map[string]any{"reason": "wrong_password"}}); err != nil {
			return err
		}
		if lockedUntil == nil || !lockedUntil.After(db.now()) || failed != 0 {
			return nil
		}
		if err := writeAudit(ctx, tx, assess.AuditEntry{Actor: actorOrAnonymous(actor), Action: "auth.lockout", TargetType: "user",
			TargetID: u.ID, Details: map[string]any{"lockedUntil": lockedUntil.UTC(), "attempts": max}}); err != nil {
			return err
		}
		return db.emitUser(ctx, tx, assess.SystemActor, assess.EventUserLocked, u.ID)
	})
	if err != nil {
		return err
	}
	return assess.ErrBadCredentials
}

func withID(a assess.Actor, id string) assess.Actor {
	if a.ID == "" {
		a.ID = id
	}
	return a
}

// Audit implements assess.IdentityService.
func (db *DB) Audit(ctx context.Context, e assess.AuditEntry) error {
	if e.Actor.ID == "" {
		e.Actor.ID = "anonymous"
	}
	return writeAudit(ctx, db.pool, e)
}

func (db *DB) userRoles(ctx context.Context, userID string) ([]string, error) {
	rows, err := db.pool.Query(ctx, `SELECT r.name FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = $1 ORDER BY r.name`, userID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// CreateSession implements assess.IdentityService.
func (db *DB) CreateSession(ctx context.Context, userID string, lifetime time.Duration, actor assess.Actor) (assess.Session, error) {
	now := db.now()
	s := assess.Session{ID: assess.NewID(assess.PrefixSession, now), UserID: userID, ExpiresAt: now.Add(lifetime)}
	_, err := db.pool.Exec(ctx, `INSERT INTO sessions (id, user_id, created_at, expires_at, last_seen_at, ip) VALUES ($1, $2, $3, $4, $3, $5)`,
		s.ID, s.UserID, now, s.ExpiresAt, actor.IP)
	return s, err
}

// SessionPrincipal implements assess.IdentityService: the session must exist, be neither
// revoked nor expired, and belong to an active user; permissions are read fresh, so a
// role change applies at the next request.
func (db *DB) SessionPrincipal(ctx context.Context, sessionID string) (*assess.Principal, error) {
	p := &assess.Principal{SessionID: sessionID}
	u := &p.User
	err := db.pool.QueryRow(ctx, `SELECT u.id, u.username, u.email, u.display_name, u.active, u.version, u.created_at, u.last_login_at
		FROM sessions s JOIN users u ON u.id = s.user_id
		WHERE s.id = $1 AND s.revoked_at IS NULL AND s.expires_at > $2 AND u.active`, sessionID, db.now()).
		Scan(&u.ID, &u.Username, &u.Email, &u.DisplayName, &u.Active, &u.Version, &u.CreatedAt, &u.LastLoginAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, &assess.Error{Code: assess.ECodeUnauthenticated, Message: "The session has ended; sign in again."}
	}
	if err != nil {
		return nil, err
	}
	return p, db.fillPermissions(ctx, p)
}

func (db *DB) fillPermissions(ctx context.Context, p *assess.Principal) error {
	rows, err := db.pool.Query(ctx, `SELECT r.name, coalesce(array_agg(rp.permission) FILTER (WHERE rp.permission IS NOT NULL), '{}')
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
func (db *DB) RevokeSession(ctx context.Context, sessionID string, actor assess.Actor) error {
	if _, err := db.pool.Exec(ctx, `UPDATE sessions SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL`, sessionID, db.now()); err != nil {
		return err
	}
	return db.Audit(ctx, assess.AuditEntry{Actor: actor, Action: "auth.logout", TargetType: "session", TargetID: sessionID})
}

// ChangePassword implements assess.IdentityService.
func (db *DB) ChangePassword(ctx context.Context, p *assess.Principal, current, next string, actor assess.Actor) error {
	if err := db.checkPasswordPolicy(ctx, "newPassword", next); err != nil {
		return err
	}
	var hash string
	if err := db.pool.QueryRow(ctx, "SELECT coalesce(password_hash, '') FROM users WHERE id = $1", p.User.ID).Scan(&hash); err != nil {
		return err
	}
	if ok, _ := db.hasher.Verify(ctx, current, hash); !ok {
		return &assess.Error{Code: assess.ECodeValidation, Message: "The current password is incorrect.",
			Details: []assess.Detail{{Field: "currentPassword", Code: "incorrect", Message: "The current password is incorrect."}}}
	}
	newHash, err := db.hasher.Hash(ctx, next) // only once the current password is right
	if err != nil {
		return err
	}
	return db.inTx(ctx, func(tx pgx.Tx) error {
		now := db.now()
		if _, err := tx.Exec(ctx, `UPDATE users SET password_hash = $2, password_changed_at = $3, updated_at = $3, version = version + 1 WHERE id = $1`,
			p.User.ID, newHash, now); err != nil {
			return err
		}
		// Other sessions end: whoever knew the old password is signed out everywhere else.
		if _, err := tx.Exec(ctx, `UPDATE sessions SET revoked_at = $3 WHERE user_id = $1 AND id <> $2 AND revoked_at IS NULL`,
			p.User.ID, p.SessionID, now); err != nil {
			return err
		}
		return writeAudit(ctx, tx, assess.AuditEntry{Actor: actor, Action: "user.password_changed", TargetType: "user", TargetID: p.User.ID})
	})
}

var _ assess.IdentityService = (*DB)(nil)
