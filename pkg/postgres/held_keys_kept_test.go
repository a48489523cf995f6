package postgres_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

// TestHeldKeysOutliveTheirUsers: a key the service held for a user, revoked or not, is
// what verification and the public rescission list judge its signatures by
// (docs/attestations.md, "Keys held by the service"), so no delete removes its row: not a
// delete of the key, nor one of its user, which cascaded to it before migration 0041 and so
// took revocations out of the rescission list. A user's own public keys still go with them.
func TestHeldKeysOutliveTheirUsers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := openPool(t, pgtest.NewDatabase(t))
	exec := func(sql string) error {
		_, err := pool.Exec(ctx, sql)
		return err
	}
	require.NoError(t, exec(`INSERT INTO users (id, username, email) SELECT 'u_' || g, 'user' || g, 'user' || g || '@example.com'
		FROM generate_series(1, 3) g`))
	// u_1 kept a public key; u_2 had a held key revoked; u_3 has a held key in use.
	require.NoError(t, exec(`INSERT INTO user_signing_keys (id, user_id, label, algorithm, key_id, public_jwk, held, private_key, revoked_at) VALUES
		('uk_1', 'u_1', 'laptop', 'ES256', 'k1', '{}', false, NULL, NULL),
		('uk_2', 'u_2', 'held', 'ES256', 'k2', '{}', true, NULL, now()),
		('uk_3', 'u_3', 'held', 'ES256', 'k3', '{}', true, 'sealed', NULL)`))
	revoked := func() []string {
		rows, err := pool.Query(ctx, `SELECT key_id FROM user_signing_keys WHERE revoked_at IS NOT NULL ORDER BY key_id`)
		require.NoError(t, err)
		defer rows.Close()
		var out []string
		for rows.Next() {
			var k string
			require.NoError(t, rows.Scan(&k))
			out = append(out, k)
		}
		require.NoError(t, rows.Err())
		return out
	}

	for _, sql := range []string{`DELETE FROM users WHERE id = 'u_2'`, `DELETE FROM users WHERE id = 'u_3'`,
		`DELETE FROM user_signing_keys WHERE id = 'uk_2'`, `DELETE FROM user_signing_keys WHERE id = 'uk_3'`} {
		err := exec(sql)
		require.Error(t, err, sql)
		require.Contains(t, err.Error(), "held signing key", sql)
	}
	require.Equal(t, []string{"k2"}, revoked())

	// Revoking still works on the row kept, and the user's own key goes with its user.
	require.NoError(t, exec(`UPDATE user_signing_keys SET private_key = NULL, revoked_at = now() WHERE id = 'uk_3'`))
	require.Equal(t, []string{"k2", "k3"}, revoked())
	require.NoError(t, exec(`DELETE FROM users WHERE id = 'u_1'`))
	var left int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM user_signing_keys WHERE user_id = 'u_1'`).Scan(&left))
	require.Zero(t, left)
}
