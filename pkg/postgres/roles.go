package postgres

import (
	"context"
	"errors"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

var errRoleNotFound = &assess.Error{Code: assess.ECodeNotFound, Message: "No such role."}

const roleColumns = `r.id, r.name, r.description, r.builtin, r.version,
	coalesce((SELECT array_agg(permission ORDER BY permission) FROM role_permissions WHERE role_id = r.id), '{}')`

func scanRole(row pgx.Row) (assess.Role, error) {
	var r assess.Role
	err := row.Scan(&r.ID, &r.Name, &r.Description, &r.Builtin, &r.Version, &r.Permissions)
	return r, err
}

// FindRoles implements assess.AdminService: built-in roles first, then by name.
func (db *DB) FindRoles(ctx context.Context) ([]assess.Role, error) {
	rows, err := db.pool.Query(ctx, "SELECT "+roleColumns+" FROM roles r ORDER BY r.builtin DESC, r.name")
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (assess.Role, error) { return scanRole(r) })
}

func (db *DB) findRole(ctx context.Context, id string) (assess.Role, error) {
	return findRoleIn(ctx, db.pool, id)
}

// emitRole reads the role inside tx and emits an event of typ about it.
func (db *DB) emitRole(ctx context.Context, tx pgx.Tx, actor assess.Actor, typ, id string) error {
	r, err := findRoleIn(ctx, tx, id)
	if err != nil {
		return err
	}
	_, err = db.emit(ctx, tx, actor, roleEvent(typ, r))
	return err
}

func findRoleIn(ctx context.Context, q querier, id string) (assess.Role, error) {
	if !assess.ValidID(assess.PrefixRole, id) {
		return assess.Role{}, errRoleNotFound
	}
	r, err := scanRole(q.QueryRow(ctx, "SELECT "+roleColumns+" FROM roles r WHERE r.id = $1", id))
	if errors.Is(err, pgx.ErrNoRows) {
		return r, errRoleNotFound
	}
	return r, err
}

// CreateRole implements assess.AdminService.
func (db *DB) CreateRole(ctx context.Context, nr assess.NewRole, actor assess.Actor) (assess.Role, error) {
	perms, err := assess.ValidatePermissions(nr.Permissions)
	if err != nil {
		return assess.Role{}, err
	}
	id := assess.NewID(assess.PrefixRole, db.now())
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "INSERT INTO roles (id, name, description) VALUES ($1, $2, $3)", id, nr.Name, strings.TrimSpace(nr.Description)); err != nil {
			return mapUniqueViolation(err, "role name")
		}
		if _, err := tx.Exec(ctx, "INSERT INTO role_permissions (role_id, permission) SELECT $1, unnest($2::text[])", id, perms); err != nil {
			return err
		}
		if err := writeAudit(ctx, tx, assess.AuditEntry{Actor: actor, Action: "role.created", TargetType: "role", TargetID: id,
			Details: map[string]any{"name": nr.Name, "permissions": perms}}); err != nil {
			return err
		}
		return db.emitRole(ctx, tx, actor, assess.EventRoleCreated, id)
	})
	if err != nil {
		return assess.Role{}, err
	}
	return db.findRole(ctx, id)
}

var errBuiltinRole = &assess.Error{Code: assess.ECodeBusinessRule,
	Message: "Built-in roles are maintained by the service and cannot be changed or deleted; create a custom role instead.",
	Details: []assess.Detail{{Code: "builtin_role"}}}

// UpdateRole implements assess.AdminService with optimistic concurrency. Holders of the
// role gain or lose permissions at their next request.
func (db *DB) UpdateRole(ctx context.Context, id string, upd assess.RoleUpdate, actor assess.Actor) (assess.Role, error) {
	before, err := db.findRole(ctx, id)
	if err != nil {
		return before, err
	}
	if before.Builtin {
		return before, errBuiltinRole
	}
	var perms []string
	if upd.Permissions != nil {
		if perms, err = assess.ValidatePermissions(*upd.Permissions); err != nil {
			return before, err
		}
	}
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		var version int64
		if err := tx.QueryRow(ctx, "SELECT version FROM roles WHERE id = $1 FOR UPDATE", id).Scan(&version); err != nil {
			return err
		}
		if version != upd.Version {
			return versionConflict(version)
		}
		if upd.Description != nil {
			if _, err := tx.Exec(ctx, "UPDATE roles SET description = $2 WHERE id = $1", id, strings.TrimSpace(*upd.Description)); err != nil {
				return err
			}
		}
		if upd.Permissions != nil {
			if _, err := tx.Exec(ctx, "DELETE FROM role_permissions WHERE role_id = $1", id); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, "INSERT INTO role_permissions (role_id, permission) SELECT $1, unnest($2::text[])", id, perms); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, "UPDATE roles SET version = version + 1, updated_at = $2 WHERE id = $1", id, db.now()); err != nil {
			return err
		}
		if err := writeAudit(ctx, tx, assess.AuditEntry{Actor: actor, Action: "role.updated", TargetType: "role", TargetID: id,
			Details: map[string]any{"name": before.Name, "before": before.Permissions, "after": perms}}); err != nil {
			return err
		}
		return db.emitRole(ctx, tx, actor, assess.EventRoleUpdated, id)
	})
	if err != nil {
		return assess.Role{}, err
	}
	return db.findRole(ctx, id)
}

// DeleteRole implements assess.AdminService; a role still held by users is a conflict.
// Global notification rules stop naming it.
func (db *DB) DeleteRole(ctx context.Context, id string, actor assess.Actor) error {
	r, err := db.findRole(ctx, id)
	if err != nil {
		return err
	}
	if r.Builtin {
		return errBuiltinRole
	}
	return db.inTx(ctx, func(tx pgx.Tx) error {
		var holders int
		if err := tx.QueryRow(ctx, "SELECT count(*) FROM user_roles WHERE role_id = $1", id).Scan(&holders); err != nil {
			return err
		}
		if holders > 0 {
			return &assess.Error{Code: assess.ECodeConflict, Message: "The role is still assigned; remove it from its users first.",
				Details: []assess.Detail{{Code: "role_in_use", Message: "Held by users."}}}
		}
		if _, err := tx.Exec(ctx, "DELETE FROM roles WHERE id = $1", id); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE notification_rules SET roles = array_remove(roles, $1), version = version + 1, updated_at = $2
			WHERE $1 = ANY (roles)`, r.Name, db.now()); err != nil {
			return err
		}
		if err := writeAudit(ctx, tx, assess.AuditEntry{Actor: actor, Action: "role.deleted", TargetType: "role", TargetID: id,
			Details: map[string]any{"name": r.Name}}); err != nil {
			return err
		}
		_, err := db.emit(ctx, tx, actor, roleEvent(assess.EventRoleDeleted, r))
		return err
	})
}

var _ assess.AdminService = (*DB)(nil)
