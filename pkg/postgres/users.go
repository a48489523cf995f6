package postgres

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

const userColumns = `u.id, u.username, u.email, u.display_name, u.active, u.version, u.created_at, u.last_login_at,
	coalesce((SELECT array_agg(r.name ORDER BY r.name) FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = u.id), '{}')`

func scanUser(r pgx.Row) (assess.User, error) {
	var u assess.User
	err := r.Scan(&u.ID, &u.Username, &u.Email, &u.DisplayName, &u.Active, &u.Version, &u.CreatedAt, &u.LastLoginAt, &u.Roles)
	u.CreatedAt = u.CreatedAt.UTC()
	return u, err
}

var errUserNotFound = &assess.Error{Code: assess.ECodeNotFound, Message: "No such user."}

// FindUsers implements assess.AdminService: filtered in SQL, ordered by username, keyset
// paginated on (lower(username), id) so every page costs the same.
func (db *DB) FindUsers(ctx context.Context, f assess.UserFilter) ([]assess.User, string, error) {
	var where []string
	var args []any
	arg := func(v any) string { args = append(args, v); return fmt.Sprintf("$%d", len(args)) }
	if q := strings.TrimSpace(f.Q); q != "" {
		p := arg("%" + strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(q) + "%")
		where = append(where, fmt.Sprintf("(u.username ILIKE %[1]s OR u.email ILIKE %[1]s OR u.display_name ILIKE %[1]s)", p))
	}
	if f.Active != "" {
		where = append(where, "u.active = "+arg(f.Active == "true"))
	}
	if f.Role != "" {
		where = append(where, "EXISTS (SELECT 1 FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = u.id AND r.name = "+arg(f.Role)+")")
	}
	if f.Cursor != "" {
		raw, err := base64.RawURLEncoding.DecodeString(f.Cursor)
		name, id, ok := strings.Cut(string(raw), "\x00")
		if err != nil || !ok {
			return nil, "", &assess.Error{Code: assess.ECodeValidation, Message: "The cursor is not valid.",
				Details: []assess.Detail{{Field: "cursor", Code: "invalid", Message: "Use nextCursor from the previous page."}}}
		}
		where = append(where, fmt.Sprintf("(lower(u.username), u.id) > (%s, %s)", arg(name), arg(id)))
	}
	limit := max(f.Limit, 1)
	q := "SELECT " + userColumns + " FROM users u"
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += fmt.Sprintf(" ORDER BY lower(u.username), u.id LIMIT %d", limit+1)
	rows, err := db.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, "", err
	}
	users, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (assess.User, error) { return scanUser(r) })
	if err != nil {
		return nil, "", err
	}
	next := ""
	if len(users) > limit {
		last := users[limit-1]
		users, next = users[:limit], base64.RawURLEncoding.EncodeToString([]byte(strings.ToLower(last.Username)+"\x00"+last.ID))
	}
	return users, next, nil
}

// FindUser implements assess.AdminService.
func (db *DB) FindUser(ctx context.Context, id string) (assess.User, error) {
	return findUser(ctx, db.pool, id)
}

// findUser reads a user as the API shows it, also inside a transaction.
func findUser(ctx context.Context, q querier, id string) (assess.User, error) {
	if !assess.ValidID(assess.PrefixUser, id) {
		return assess.User{}, errUserNotFound
	}
	u, err := scanUser(q.QueryRow(ctx, "SELECT "+userColumns+" FROM users u WHERE u.id = $1", id))
	if errors.Is(err, pgx.ErrNoRows) {
		return u, errUserNotFound
	}
	return u, err
}

// emitUser reads the user inside tx and emits an event of typ about them.
func (db *DB) emitUser(ctx context.Context, tx pgx.Tx, actor assess.Actor, typ, id string) error {
	u, err := findUser(ctx, tx, id)
	if err != nil {
		return err
	}
	_, err = db.emit(ctx, tx, actor, userEvent(typ, u))
	return err
}

// roleIDs resolves role names, refusing unknown ones.
func roleIDs(ctx context.Context, tx pgx.Tx, names []string) ([]string, error) {
	rows, err := tx.Query(ctx, "SELECT name, id FROM roles WHERE name = ANY($1)", names)
	if err != nil {
		return nil, err
	}
	found := map[string]string{}
	for rows.Next() {
		var n, id string
		if err := rows.Scan(&n, &id); err != nil {
			rows.Close()
			return nil, err
		}
		found[n] = id
	}
	rows.Close()
	var ids []string
	for _, n := range names {
		id, ok := found[n]
		if !ok {
			return nil, &assess.Error{Code: assess.ECodeValidation, Message: "Unknown role " + n + ".",
				Details: []assess.Detail{{Field: "roles", Code: "unknown_role", Message: "Unknown role " + n + "."}}}
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

func setRoles(ctx context.Context, tx pgx.Tx, userID string, names []string) error {
	ids, err := roleIDs(ctx, tx, names)
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, "DELETE FROM user_roles WHERE user_id = $1", userID); err != nil {
		return err
	}
	_, err = tx.Exec(ctx, "INSERT INTO user_roles (user_id, role_id) SELECT $1, unnest($2::text[])", userID, ids)
	return err
}

// CreateUser implements assess.AdminService. Administrators can create users whatever
// REGISTRATION_MODE says.
func (db *DB) CreateUser(ctx context.Context, nu assess.NewUser, actor assess.Actor) (assess.User, error) {
	if err := nu.Validate(db.identity.PasswordMinLength); err != nil {
		return assess.User{}, err
	}
	if err := db.refuseBreached(ctx, "password", nu.Password); err != nil {
		return assess.User{}, err
	}
	roles := nu.Roles
	if len(roles) == 0 {
		roles = []string{assess.RoleAssessee}
	}
	slices.Sort(roles)
	roles = slices.Compact(roles)
	hash, err := db.hasher.Hash(ctx, nu.Password)
	if err != nil {
		return assess.User{}, err
	}
	now := db.now()
	id := assess.NewID(assess.PrefixUser, now)
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO users (id, username, email, display_name, password_hash, created_at, updated_at, password_changed_at)
			VALUES ($1, $2, $3, $4, $5, $6, $6, $6)`, id, nu.Username, nu.Email, nu.DisplayName, hash, now); err != nil {
			return mapUniqueViolation(err, "username or e-mail")
		}
		if err := setRoles(ctx, tx, id, roles); err != nil {
			return err
		}
		if err := writeAudit(ctx, tx, assess.AuditEntry{Actor: actor, Action: "user.created", TargetType: "user", TargetID: id,
			Details: map[string]any{"username": nu.Username, "roles": roles}}); err != nil {
			return err
		}
		return db.emitUser(ctx, tx, actor, assess.EventUserCreated, id)
	})
	if err != nil {
		return assess.User{}, err
	}
	db.setupComplete.Store(true)
	return db.FindUser(ctx, id)
}

func versionConflict(current int64) error {
	return &assess.Error{Code: assess.ECodeVersionConflict, Message: "The record was changed by someone else; reload it and try again.",
		Details: []assess.Detail{{Field: "version", Code: "stale", Message: fmt.Sprintf("The current version is %d.", current)}}}
}

// UpdateUser implements assess.AdminService with optimistic concurrency. An administrator
// cannot deactivate themselves, and the last active administrator cannot lose the role.
func (db *DB) UpdateUser(ctx context.Context, id string, upd assess.UserUpdate, actor assess.Actor) (assess.User, error) {
	before, err := db.FindUser(ctx, id)
	if err != nil {
		return before, err
	}
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		var version int64
		if err := tx.QueryRow(ctx, "SELECT version FROM users WHERE id = $1 FOR UPDATE", id).Scan(&version); err != nil {
			return err
		}
		if version != upd.Version {
			return versionConflict(version)
		}
		if before, err = findUser(ctx, tx, id); err != nil { // as locked, for the audit and the events
			return err
		}
		if upd.Active != nil && !*upd.Active && id == actor.ID {
			return &assess.Error{Code: assess.ECodeBusinessRule, Message: "You cannot deactivate your own account.",
				Details: []assess.Detail{{Field: "active", Code: "self_deactivation"}}}
		}
		if err := db.applyUserUpdate(ctx, tx, id, upd); err != nil {
			return err
		}
		if err := requireAnAdmin(ctx, tx); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "UPDATE users SET version = version + 1, updated_at = $2 WHERE id = $1", id, db.now()); err != nil {
			return err
		}
		if err := writeAudit(ctx, tx, assess.AuditEntry{Actor: actor, Action: "user.updated", TargetType: "user", TargetID: id,
			Details: map[string]any{"before": map[string]any{"email": before.Email, "displayName": before.DisplayName, "active": before.Active, "roles": before.Roles},
				"changes": upd}}); err != nil {
			return err
		}
		return db.emitUserChanges(ctx, tx, actor, before)
	})
	if err != nil {
		return assess.User{}, err
	}
	return db.FindUser(ctx, id)
}

// applyUserUpdate writes the fields of upd; deactivation signs the user out everywhere.
func (db *DB) applyUserUpdate(ctx context.Context, tx pgx.Tx, id string, upd assess.UserUpdate) error {
	if upd.Email != nil {
		if _, err := tx.Exec(ctx, "UPDATE users SET email = $2 WHERE id = $1", id, strings.TrimSpace(*upd.Email)); err != nil {
			return mapUniqueViolation(err, "e-mail")
		}
	}
	if upd.DisplayName != nil {
		if _, err := tx.Exec(ctx, "UPDATE users SET display_name = $2 WHERE id = $1", id, strings.TrimSpace(*upd.DisplayName)); err != nil {
			return err
		}
	}
	if upd.Active != nil {
		if _, err := tx.Exec(ctx, "UPDATE users SET active = $2 WHERE id = $1", id, *upd.Active); err != nil {
			return err
		}
		if !*upd.Active { // sign the user out everywhere at once
			if _, err := tx.Exec(ctx, "UPDATE sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL", id, db.now()); err != nil {
				return err
			}
		}
	}
	if upd.Roles != nil {
		if err := setRoles(ctx, tx, id, *upd.Roles); err != nil {
			return err
		}
	}
	return nil
}

// requireAnAdmin keeps the installation manageable: at least one active administrator.
func requireAnAdmin(ctx context.Context, tx pgx.Tx) error {
	var n int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM users u JOIN user_roles ur ON ur.user_id = u.id JOIN roles r ON r.id = ur.role_id
		WHERE r.name = $1 AND u.active`, assess.RoleAdmin).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return &assess.Error{Code: assess.ECodeBusinessRule, Message: "At least one active administrator must remain.",
			Details: []assess.Detail{{Field: "roles", Code: "last_admin"}}}
	}
	return nil
}

// ResetPassword implements assess.AdminService: sets a new password, clears the lockout
// and ends the user's sessions.
func (db *DB) ResetPassword(ctx context.Context, id, password string, actor assess.Actor) error {
	if _, err := db.FindUser(ctx, id); err != nil {
		return err
	}
	hash, err := db.checkNewPassword(ctx, "password", password)
	if err != nil {
		return err
	}
	return db.inTx(ctx, func(tx pgx.Tx) error {
		if err := db.replacePassword(ctx, tx, id, hash); err != nil {
			return err
		}
		return writeAudit(ctx, tx, assess.AuditEntry{Actor: actor, Action: "user.password_reset", TargetType: "user", TargetID: id})
	})
}

// emitUserChanges emits user.deactivated when the account went from active to inactive,
// and user.updated when anything else about it changed (a no-op update emits nothing).
func (db *DB) emitUserChanges(ctx context.Context, tx pgx.Tx, actor assess.Actor, before assess.User) error {
	after, err := findUser(ctx, tx, before.ID)
	if err != nil {
		return err
	}
	deactivated := before.Active && !after.Active
	if deactivated {
		if _, err := db.emit(ctx, tx, actor, userEvent(assess.EventUserDeactivated, after)); err != nil {
			return err
		}
	}
	otherChange := before.Email != after.Email || before.DisplayName != after.DisplayName ||
		!slices.Equal(before.Roles, after.Roles) || (!before.Active && after.Active)
	if !otherChange {
		return nil
	}
	_, err = db.emit(ctx, tx, actor, userEvent(assess.EventUserUpdated, after))
	return err
}
