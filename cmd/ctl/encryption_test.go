package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
	"github.com/assay-dev/assay/pkg/postgres/services"
)

const (
	keyA = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	keyB = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	keyC = "cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc"
)

func status(t *testing.T, env []string) assess.EncryptionStatus {
	t.Helper()
	out, err := execute(t, env, "encryption-status", "--json")
	require.NoError(t, err, out)
	var st assess.EncryptionStatus
	require.NoError(t, json.Unmarshal([]byte(out), &st), out)
	return st
}

// TestEncryptionLifecycle walks an operator through enabling encryption on an existing
// installation, rotating twice and moving to a new master key.
func TestEncryptionLifecycle(t *testing.T) {
	t.Parallel()
	dsn := pgtest.NewDatabase(t)
	base := []string{"DATABASE_PROVIDER=postgres", "DATABASE_URL=" + dsn}
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, dsn)
	require.NoError(t, err)
	defer pool.Close()
	// The installation ran without a key: its generated JWT secret is plaintext.
	jwt, err := postgres.New(pool, nil).JWTSecret(ctx)
	require.NoError(t, err)
	// And it sealed attestations: a platform key, then its successor, both in plaintext.
	_, err = services.New(postgres.New(pool, nil)).PlatformKeys.RotatePlatformKey(ctx, assess.SystemActor)
	require.NoError(t, err)

	withA := append(base, "MASTER_ENCRYPTION_KEY="+keyA)
	out, err := execute(t, withA, "encrypt-secrets", "--actor", "cli:alice")
	require.NoError(t, err)
	require.Contains(t, out, "encrypted 3 plaintext secrets", "the JWT secret and both platform keys")
	out, err = execute(t, withA, "encrypt-secrets")
	require.NoError(t, err)
	require.Contains(t, out, "encrypted 0 plaintext secrets; 3 were already encrypted")

	for _, want := range []string{"key version 2 is current (was 1); 3 data keys rewrapped", "key version 3 is current"} {
		out, err = execute(t, withA, "rotate-encryption-key")
		require.NoError(t, err)
		require.Contains(t, out, want)
	}
	st := status(t, withA)
	require.Equal(t, 3, st.CurrentVersion)
	require.Len(t, st.Versions, 3)
	require.Equal(t, []assess.EncryptedFieldCount{{Kind: "jwt_secret", Encrypted: 1}, {Kind: "api_key_hash"},
		{Kind: "webhook_url"}, {Kind: "webhook_secret"}, {Kind: "chat_url"}, {Kind: "email_params"}, {Kind: "smtp_password"},
		{Kind: "platform_signing_key", Encrypted: 2}, {Kind: "held_signing_key"}}, st.Fields)

	_, err = execute(t, append(base, "MASTER_ENCRYPTION_KEY="+keyB, "OLD_MASTER_ENCRYPTION_KEY="+keyC), "rekey-master")
	require.ErrorContains(t, err, "does not open key version 1")
	_, err = execute(t, append(base, "MASTER_ENCRYPTION_KEY="+keyB), "rekey-master")
	require.ErrorContains(t, err, "OLD_MASTER_ENCRYPTION_KEY")
	out, err = execute(t, append(base, "MASTER_ENCRYPTION_KEY="+keyB, "OLD_MASTER_ENCRYPTION_KEY="+keyA), "rekey-master")
	require.NoError(t, err)
	require.Contains(t, out, "rekeyed 3 key versions")

	withB := append(base, "MASTER_ENCRYPTION_KEY="+keyB)
	for _, v := range status(t, withB).Versions {
		require.True(t, v.Usable, "version %d opens with the new key", v.Version)
	}
	for _, v := range status(t, withA).Versions {
		require.False(t, v.Usable, "version %d no longer opens with the old key", v.Version)
	}
	store := postgres.New(pool, nil)
	_, err = store.LoadKeyring(ctx, []byte(strings.Repeat("\xbb", 32)), assess.SystemActor)
	require.NoError(t, err)
	got, err := store.JWTSecret(ctx)
	require.NoError(t, err)
	require.Equal(t, jwt, got)

	var actions []string
	rows, err := pool.Query(ctx, "SELECT action || ' by ' || actor FROM audit_log ORDER BY id")
	require.NoError(t, err)
	for rows.Next() {
		var a string
		require.NoError(t, rows.Scan(&a))
		actions = append(actions, a)
	}
	require.Contains(t, actions, "encryption.secrets_migrated by cli:alice")
	require.Contains(t, actions, "encryption.master_rekeyed by "+defaultActor())
}

func TestEncryptionCommandsNeedAKey(t *testing.T) {
	t.Parallel()
	env := []string{"DATABASE_PROVIDER=postgres", "DATABASE_URL=" + pgtest.NewDatabase(t)}
	for _, cmd := range []string{"encrypt-secrets", "rotate-encryption-key"} {
		_, err := execute(t, env, cmd)
		require.ErrorContains(t, err, "MASTER_ENCRYPTION_KEY", cmd)
	}
	st := status(t, env)
	require.Equal(t, "passthrough", st.Mode)
}
