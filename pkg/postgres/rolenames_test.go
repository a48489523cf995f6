package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

// TestUserRoleNames: the reads of users name their roles from the server's map of role
// names, which must follow roles created after it was filled — by another replica (here:
// plain SQL on the same database) or in the reading transaction — and list the names
// sorted, whatever order the user_roles entries come in, however user_roles changes.
func TestUserRoleNames(t *testing.T) {
	t.Parallel()
	pool := openPool(t, pgtest.NewDatabase(t))
	ctx := context.Background()
	users := testServices(postgres.New(pool, nil)).Users
	one, two := assess.NewID(assess.PrefixUser, time.Now()), assess.NewID(assess.PrefixUser, time.Now())
	exec := func(sql string, args ...any) {
		t.Helper()
		_, err := pool.Exec(ctx, sql, args...)
		require.NoError(t, err)
	}
	exec(`INSERT INTO roles (id, name) VALUES ('ro_zz', 'zeta'), ('ro_aa', 'alpha')`)
	exec(`INSERT INTO users (id, username, email) VALUES ($1, 'one', 'one@example.com'), ($2, 'two', 'two@example.com')`, one, two)
	exec(`INSERT INTO user_roles (user_id, role_id) VALUES ($1, 'ro_zz'), ($1, 'ro_aa'), ($2, 'ro_zz')`, one, two)
	roles := func() map[string][]string {
		page, err := users.FindUsers(ctx, assess.UserFilter{})
		require.NoError(t, err)
		got := map[string][]string{}
		for _, u := range page.Items {
			got[u.Username] = u.Roles
		}
		return got
	}
	require.Equal(t, map[string][]string{"one": {"alpha", "zeta"}, "two": {"zeta"}}, roles())

	// A role the map has not seen, created elsewhere after it was filled.
	exec(`INSERT INTO roles (id, name) VALUES ('ro_mm', 'middle')`)
	exec(`INSERT INTO user_roles (user_id, role_id) VALUES ($1, 'ro_mm')`, two)
	require.Equal(t, map[string][]string{"one": {"alpha", "zeta"}, "two": {"middle", "zeta"}}, roles())
	u, err := users.FindUser(ctx, two)
	require.NoError(t, err)
	require.Equal(t, []string{"middle", "zeta"}, u.Roles)

	// A user without roles has an empty list, not null.
	exec(`DELETE FROM user_roles WHERE user_id = $1`, one)
	u, err = users.FindUser(ctx, one)
	require.NoError(t, err)
	require.NotNil(t, u.Roles)
	require.Empty(t, u.Roles)

	// The ids on the user's row (migration 0016) follow every change of user_roles: an
	// entry moved to another user, and a user deleted with their entries.
	exec(`UPDATE user_roles SET user_id = $1 WHERE user_id = $2 AND role_id = 'ro_mm'`, one, two)
	require.Equal(t, map[string][]string{"one": {"middle"}, "two": {"zeta"}}, roles())
	exec(`DELETE FROM users WHERE id = $1`, two)
	require.Equal(t, map[string][]string{"one": {"middle"}}, roles())
}
