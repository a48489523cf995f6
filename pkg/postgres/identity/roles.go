package identity

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

var errRoleNotFound = &assess.Error{Code: assess.ECodeNotFound, Message: "No such role."}

const roleColumns = `r.id, r.name, r.description, r.builtin, r.version,
	coalesce((SELECT array_agg(permission ORDER BY permission) FROM role_permissions WHERE role_id = r.id), '{}')`

func scanRole(row pgx.Row) (assess.Role, error) {
	var r assess.Role
	err := row.Scan(&r.ID, &r.Name, &r.Description, &r.Builtin, &r.Version, &r.Permissions)
	return r, err
}

// FindRoles implements assess.RoleService: built-in roles first, then by name. The list is
// small and bounded (the built-in roles and the custom ones), so it is not paged.
func (s *RoleService) FindRoles(ctx context.Context) ([]assess.Role, error) {
	rows, err := s.db.Pool.Query(ctx, "SELECT "+roleColumns+" FROM roles r ORDER BY r.builtin DESC, r.name")
	if err != nil {
		return nil, postgres.DBError(err)
	}
	roles, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (assess.Role, error) { return scanRole(r) })
	return roles, postgres.DBError(err)
}

func findRole(ctx context.Context, q postgres.Querier, id string) (assess.Role, error) {
	if !assess.ValidID(assess.PrefixRole, id) {
		return assess.Role{}, errRoleNotFound
	}
	r, err := scanRole(q.QueryRow(ctx, "SELECT "+roleColumns+" FROM roles r WHERE r.id = $1", id))
	if errors.Is(err, pgx.ErrNoRows) {
		return r, errRoleNotFound
	}
	return r, postgres.DBError(err)
}

// roleTarget names a role in the audit log.
func roleTarget(id string) postgres.Target { return postgres.Target{Type: "role", ID: id} }

// setRolePermissions replaces the permission set of a role.
func setRolePermissions(ctx context.Context, tx *postgres.Tx, id string, perms []string) error {
	if err := tx.Invalidate(ctx, postgres.RoleCredentials()); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, "DELETE FROM role_permissions WHERE role_id = $1", id); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, "INSERT INTO role_permissions (role_id, permission) SELECT $1, unnest($2::text[])", id, perms)
	return err
}

// CreateRole implements assess.RoleService.
func (s *RoleService) CreateRole(ctx context.Context, nr assess.NewRole, actor assess.Actor) (assess.Role, error) {
	var r assess.Role
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := nr.Validate(); err != nil {
			return err
		}
		id := assess.NewID(assess.PrefixRole, tx.Now)
		if _, err := tx.Exec(ctx, "INSERT INTO roles (id, name, description) VALUES ($1, $2, $3)", id, nr.Name, nr.Description); err != nil {
			return err
		}
		if err := setRolePermissions(ctx, tx, id, nr.Permissions); err != nil {
			return err
		}
		var err error
		if r, err = findRole(ctx, tx, id); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeRoleCreated, roleTarget(id),
			map[string]any{"name": nr.Name, "permissions": nr.Permissions}, postgres.RoleEvent(r))
	})
	return r, err
}

var errBuiltinRole = &assess.Error{Code: assess.ECodeBusinessRule,
	Message: "Built-in roles are maintained by the service and cannot be changed or deleted; create a custom role instead.",
	Details: []assess.Detail{{Code: "builtin_role"}}}

// UpdateRole implements assess.RoleService with optimistic concurrency. Holders of the
// role gain or lose permissions at their next request.
func (s *RoleService) UpdateRole(ctx context.Context, id string, upd assess.RoleUpdate, actor assess.Actor) (assess.Role, error) {
	var after assess.Role
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		before, err := findRole(ctx, tx, id)
		if err != nil {
			return err
		}
		if before.Builtin {
			return errBuiltinRole
		}
		if err := upd.Validate(); err != nil {
			return err
		}
		if err := tx.LockVersion(ctx, "roles", id, upd.Version, errRoleNotFound); err != nil {
			return err
		}
		if upd.Description != nil {
			if _, err := tx.Exec(ctx, "UPDATE roles SET description = $2 WHERE id = $1", id, *upd.Description); err != nil {
				return err
			}
		}
		var perms []string
		if upd.Permissions != nil {
			perms = *upd.Permissions
			if err := setRolePermissions(ctx, tx, id, perms); err != nil {
				return err
			}
		}
		if err := tx.BumpVersion(ctx, "roles", id); err != nil {
			return err
		}
		if after, err = findRole(ctx, tx, id); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeRoleUpdated, roleTarget(id),
			map[string]any{"name": before.Name, "before": before.Permissions, "after": perms}, postgres.RoleEvent(after))
	})
	return after, err
}

// DeleteRole implements assess.RoleService; a role still held by users is a conflict.
// Global notification rules stop naming it.
func (s *RoleService) DeleteRole(ctx context.Context, id string, actor assess.Actor) error {
	return s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		r, err := findRole(ctx, tx, id)
		if err != nil {
			return err
		}
		if r.Builtin {
			return errBuiltinRole
		}
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
		if err := tx.Invalidate(ctx, postgres.RoleCredentials()); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE notification_rules SET roles = array_remove(roles, $1), version = version + 1, updated_at = $2
			WHERE $1 = ANY (roles)`, r.Name, tx.Now); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeRoleDeleted, roleTarget(id), map[string]any{"name": r.Name}, postgres.RoleEvent(r))
	})
}

var _ assess.RoleService = (*RoleService)(nil)
