package identity

import (
	"context"
	"fmt"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// builtinRolesLock is the advisory lock key ("assay:rl") that serialises concurrent
// start-ups syncing the built-in roles.
const builtinRolesLock int64 = 0x61737361793a726c

// SyncBuiltinRoles creates the built-in roles and sets their permission sets to what this
// version of the service defines. Run at start, as the system; concurrent runs serialise
// on an advisory lock. It is not audited: the roles follow the code, not a decision.
func (s *RoleService) SyncBuiltinRoles(ctx context.Context) error {
	return s.db.Change(ctx, assess.SystemActor, func(tx *postgres.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", builtinRolesLock); err != nil {
			return err
		}
		for _, r := range assess.BuiltinRoles() {
			var id string
			err := tx.QueryRow(ctx, `INSERT INTO roles (id, name, description, builtin) VALUES ($1, $2, $3, true)
				ON CONFLICT (name) DO UPDATE SET description = EXCLUDED.description, builtin = true
				RETURNING id`, assess.NewID(assess.PrefixRole, tx.Now), r.Name, r.Description).Scan(&id)
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
		return tx.Invalidate(ctx, postgres.RoleCredentials()) // a new version may change what the built-in roles grant
	})
}
