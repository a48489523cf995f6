package identity

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// userColumns are a user's columns and the ids of their roles, which a trigger on
// user_roles keeps on the user's row (migration 0016); DB.roleNames turns the ids into
// names (rolenames.go).
const userColumns = `u.id, u.username, u.email, u.display_name, u.active, u.version, u.created_at, u.last_login_at, u.role_ids`

// scanUser reads a user of userColumns, with role ids in Roles until DB.roleNames.fill
// names them.
func scanUser(r pgx.Row) (assess.User, error) {
	var u assess.User
	err := r.Scan(&u.ID, &u.Username, &u.Email, &u.DisplayName, &u.Active, &u.Version, &u.CreatedAt, &u.LastLoginAt, &u.Roles)
	u.CreatedAt = u.CreatedAt.UTC()
	return u, err
}

var errUserNotFound = &assess.Error{Code: assess.ECodeNotFound, Message: "No such user."}

// userSorts are the orders of the user list.
var userSorts = map[string]postgres.SortOrder{
	"username": {Name: "username", Keys: []postgres.SortKey{{Expr: "lower(u.username)", Typ: "text"}, {Expr: "u.id", Typ: "text"}}},
	"-createdAt": {Name: "-createdAt", Keys: []postgres.SortKey{{Expr: "u.created_at", Typ: "timestamptz", Desc: true},
		{Expr: "u.id", Typ: "text", Desc: true}}},
}

// FindUsers implements assess.UserService: filtered in SQL, ordered by username (or newest
// first), keyset paginated so every page costs the same.
func (s *UserService) FindUsers(ctx context.Context, f assess.UserFilter) (assess.Page[assess.User], error) {
	order, ok := userSorts[f.Sort]
	if !ok {
		order = userSorts["username"]
	}
	l := postgres.NewList("users", "SELECT "+userColumns+" FROM users u", order)
	l.Search(f.Q, "u.username", "u.email", "u.display_name")
	if f.Active != "" {
		l.Where("u.active = " + l.Arg(f.Active == "true"))
	}
	if f.Role != "" {
		l.Where("EXISTS (SELECT 1 FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = u.id AND r.name = " + l.Arg(f.Role) + ")")
	}
	page, err := postgres.CollectPage(ctx, s.db.Pool, l, f.PageRequest, scanUser, func(u assess.User) []any {
		if order.Name == "-createdAt" {
			return []any{u.CreatedAt, u.ID}
		}
		return []any{strings.ToLower(u.Username), u.ID} // usernames are ASCII: lower() in SQL agrees
	})
	if err != nil {
		return page, err
	}
	roles := make([]*[]string, len(page.Items))
	for i := range page.Items {
		roles[i] = &page.Items[i].Roles
	}
	return page, postgres.DBError(s.db.RoleNames.Fill(ctx, s.db.Pool, roles...))
}

// FindUser implements assess.UserService.
func (s *UserService) FindUser(ctx context.Context, id string) (assess.User, error) {
	return findUser(ctx, s.db, s.db.Pool, id)
}

// findUser reads a user as the API shows it, also inside a transaction.
func findUser(ctx context.Context, db *postgres.DB, q postgres.Querier, id string) (assess.User, error) {
	if !assess.ValidID(assess.PrefixUser, id) {
		return assess.User{}, errUserNotFound
	}
	u, err := scanUser(q.QueryRow(ctx, "SELECT "+userColumns+" FROM users u WHERE u.id = $1", id))
	if errors.Is(err, pgx.ErrNoRows) {
		return u, errUserNotFound
	}
	if err == nil {
		err = db.RoleNames.Fill(ctx, q, &u.Roles)
	}
	return u, postgres.DBError(err)
}

// userTarget names a user in the audit log.
func userTarget(id string) postgres.Target { return postgres.Target{Type: "user", ID: id} }

// RecordUser reads the user inside tx and records change c about them (audit row and,
// when c is announced, its event).
func RecordUser(ctx context.Context, tx *postgres.Tx, c assess.Change, id string, details map[string]any) error {
	u, err := findUser(ctx, tx.DB, tx, id)
	if err != nil {
		return err
	}
	return tx.Record(ctx, c, userTarget(id), details, postgres.UserEvent(u))
}

// roleIDs resolves role names, refusing unknown ones.
func roleIDs(ctx context.Context, q postgres.Querier, names []string) ([]string, error) {
	rows, err := q.Query(ctx, "SELECT name, id FROM roles WHERE name = ANY($1)", names)
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
	if err := rows.Err(); err != nil { // a dropped connection is not an unknown role
		return nil, err
	}
	var ids []string
	for _, n := range names {
		id, ok := found[n]
		if !ok {
			return nil, &assess.Error{Code: assess.ECodeValidation, Message: "Unknown role " + n + ".",
				Details: []assess.Detail{{Field: "roles", Code: "unknown_role", Message: "Unknown role " + n + "."}}}
		}
		ids = append(ids, id)
	}
	return ids, nil
}

func SetRoles(ctx context.Context, tx *postgres.Tx, userID string, names []string) error {
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

// CreateUser implements assess.UserService. Administrators can create users whatever
// REGISTRATION_MODE says. The account is validated and its password hashed before the
// transaction, so the slow hash holds no connection.
func (s *UserService) CreateUser(ctx context.Context, nu assess.NewUser, actor assess.Actor) (assess.User, error) {
	if err := nu.Validate(s.cfg.PasswordMinLength); err != nil {
		return assess.User{}, err
	}
	hash, err := s.cfg.checkNewPassword(ctx, "password", nu.Password)
	if err != nil {
		return assess.User{}, err
	}
	var u assess.User
	err = s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		id := assess.NewID(assess.PrefixUser, tx.Now)
		if _, err := tx.Exec(ctx, `INSERT INTO users (id, username, email, display_name, password_hash, created_at, updated_at, password_changed_at)
			VALUES ($1, $2, $3, $4, $5, $6, $6, $6)`, id, nu.Username, nu.Email, nu.DisplayName, hash, tx.Now); err != nil {
			return err
		}
		if err := SetRoles(ctx, tx, id, nu.Roles); err != nil {
			return err
		}
		if u, err = findUser(ctx, s.db, tx, id); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeUserCreated, userTarget(id),
			map[string]any{"username": nu.Username, "roles": nu.Roles}, postgres.UserEvent(u))
	})
	if err != nil {
		return assess.User{}, err
	}
	s.db.SetupSeen.Store(true)
	return u, nil
}

// UpdateUser implements assess.UserService with optimistic concurrency. An administrator
// cannot deactivate themselves, and the last active administrator cannot lose the role.
func (s *UserService) UpdateUser(ctx context.Context, id string, upd assess.UserUpdate, actor assess.Actor) (assess.User, error) {
	if !assess.ValidID(assess.PrefixUser, id) {
		return assess.User{}, errUserNotFound
	}
	var after assess.User
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := upd.Validate(); err != nil {
			return err
		}
		if err := tx.LockVersion(ctx, "users", id, upd.Version, errUserNotFound); err != nil {
			return err
		}
		before, err := findUser(ctx, s.db, tx, id) // as locked, for the audit and the events
		if err != nil {
			return err
		}
		if upd.Active != nil && !*upd.Active && id == actor.ID {
			return &assess.Error{Code: assess.ECodeBusinessRule, Message: "You cannot deactivate your own account.",
				Details: []assess.Detail{{Field: "active", Code: "self_deactivation"}}}
		}
		if err := applyUserUpdate(ctx, tx, id, upd); err != nil {
			return err
		}
		if err := requireAnAdmin(ctx, tx); err != nil {
			return err
		}
		if err := tx.BumpVersion(ctx, "users", id); err != nil {
			return err
		}
		if err := tx.Record(ctx, assess.ChangeUserUpdated, userTarget(id), map[string]any{
			"before":  map[string]any{"email": before.Email, "displayName": before.DisplayName, "active": before.Active, "roles": before.Roles},
			"changes": upd}, assess.NewEvent{}); err != nil {
			return err
		}
		after, err = announceUserChanges(ctx, tx, before)
		return err
	})
	return after, err
}

// applyUserUpdate writes the fields of upd; deactivation signs the user out everywhere.
// Every cached credential of the user is invalidated.
func applyUserUpdate(ctx context.Context, tx *postgres.Tx, id string, upd assess.UserUpdate) error {
	if err := tx.Invalidate(ctx, postgres.UserCredentials(id)); err != nil {
		return err
	}
	if upd.Email != nil {
		if _, err := tx.Exec(ctx, "UPDATE users SET email = $2 WHERE id = $1", id, *upd.Email); err != nil {
			return err
		}
	}
	if upd.DisplayName != nil {
		if _, err := tx.Exec(ctx, "UPDATE users SET display_name = $2 WHERE id = $1", id, *upd.DisplayName); err != nil {
			return err
		}
	}
	if upd.Active != nil {
		if _, err := tx.Exec(ctx, "UPDATE users SET active = $2 WHERE id = $1", id, *upd.Active); err != nil {
			return err
		}
		if !*upd.Active { // sign the user out everywhere at once
			if _, err := tx.Exec(ctx, "UPDATE sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL", id, tx.Now); err != nil {
				return err
			}
		}
	}
	if upd.Roles != nil {
		if err := SetRoles(ctx, tx, id, *upd.Roles); err != nil {
			return err
		}
	}
	return nil
}

// requireAnAdmin keeps the installation manageable: at least one active administrator.
func requireAnAdmin(ctx context.Context, tx *postgres.Tx) error {
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

// ResetPassword implements assess.UserService: sets a new password, clears the lockout
// and ends the user's sessions.
func (s *UserService) ResetPassword(ctx context.Context, id, password string, actor assess.Actor) error {
	if _, err := s.FindUser(ctx, id); err != nil {
		return err
	}
	hash, err := s.cfg.checkNewPassword(ctx, "password", password)
	if err != nil {
		return err
	}
	return s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := replacePassword(ctx, tx, id, hash); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeUserPasswordReset, userTarget(id), nil, assess.NewEvent{})
	})
}

// announceUserChanges emits user.deactivated when the account went from active to
// inactive, and user.updated when anything else about it changed (a no-op update emits
// nothing). It returns the user as changed.
func announceUserChanges(ctx context.Context, tx *postgres.Tx, before assess.User) (assess.User, error) {
	after, err := findUser(ctx, tx.DB, tx, before.ID)
	if err != nil {
		return after, err
	}
	if before.Active && !after.Active {
		if err := tx.Announce(ctx, assess.EventUserDeactivated, postgres.UserEvent(after)); err != nil {
			return after, err
		}
	}
	otherChange := before.Email != after.Email || before.DisplayName != after.DisplayName ||
		!slices.Equal(before.Roles, after.Roles) || (!before.Active && after.Active)
	if !otherChange {
		return after, nil
	}
	return after, tx.Announce(ctx, assess.EventUserUpdated, postgres.UserEvent(after))
}

var _ assess.UserService = (*UserService)(nil)
