package identity

import (
	"context"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

// FindPeople implements assess.PeopleService: active users whose username or a word of
// whose display name starts with q, holding the permission when one is named, by
// username; at most f.Limit (default 20).
func (s *UserService) FindPeople(ctx context.Context, f assess.PeopleFilter) (assess.PeopleList, error) {
	limit := f.Limit
	if limit <= 0 || limit > 50 {
		limit = 20
	}
	prefix := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(strings.ToLower(strings.TrimSpace(f.Q))) + "%"
	rows, err := s.db.Pool.Query(ctx, `SELECT u.id, u.username, u.display_name FROM users u
		WHERE u.active
			AND (lower(u.username) LIKE $1 OR lower(u.display_name) LIKE $1 OR lower(u.display_name) LIKE '% ' || $1)
			AND ($2 = '' OR EXISTS (SELECT 1 FROM user_roles ur JOIN role_permissions rp ON rp.role_id = ur.role_id
				WHERE ur.user_id = u.id AND rp.permission = $2))
		ORDER BY lower(u.username), u.id LIMIT $3`, prefix, f.Permission, limit)
	if err != nil {
		return assess.PeopleList{}, err
	}
	people, err := pgx.CollectRows(rows, pgx.RowToStructByPos[assess.UserRef])
	if people == nil {
		people = []assess.UserRef{}
	}
	return assess.PeopleList{Items: people}, err
}
