package postgres_test

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
	"github.com/assay-dev/assay/pkg/secret"
)

var testField = postgres.EncryptedField{Kind: "test_secret", Table: "test_secrets", Column: "value", IDColumn: "id"}

func masterKey(t testing.TB) []byte {
	k := make([]byte, secret.KeySize)
	_, err := rand.Read(k)
	require.NoError(t, err)
	return k
}

// secretsDB returns a store whose registry is the real one plus a test table of n rows.
func secretsDB(t testing.TB, pool *pgxpool.Pool, master []byte) *postgres.DB {
	t.Helper()
	ctx := context.Background()
	_, err := pool.Exec(ctx, `CREATE TABLE IF NOT EXISTS test_secrets (id text PRIMARY KEY, value text)`)
	require.NoError(t, err)
	db := postgres.New(pool, nil).WithEncryptedFields(append([]postgres.EncryptedField{testField}, postgres.EncryptedFields...))
	_, err = db.LoadKeyring(ctx, master, assess.Actor{ID: "test"})
	require.NoError(t, err)
	return db
}

func openAll(t *testing.T, pool *pgxpool.Pool, keys *secret.Keyring) map[string]string {
	t.Helper()
	rows, err := pool.Query(context.Background(), "SELECT id, value FROM test_secrets ORDER BY id")
	require.NoError(t, err)
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var id, stored string
		require.NoError(t, rows.Scan(&id, &stored))
		plain, err := keys.Open(context.Background(), testField.AAD(id), stored)
		require.NoError(t, err, id)
		out[id] = string(plain)
	}
	return out
}

func auditCount(t *testing.T, pool *pgxpool.Pool, action assess.AuditAction) int {
	var n int
	require.NoError(t, pool.QueryRow(context.Background(), "SELECT count(*) FROM audit_log WHERE action = $1", action).Scan(&n))
	return n
}

// TestEncryptSecretsWhileWritersRun mixes plaintext and encrypted rows, runs the migration
// while writers keep replacing values, and checks that every row ends encrypted with the
// last value its writer wrote, and that a second run changes nothing.
func TestEncryptSecretsWhileWritersRun(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewPool(t)
	db := secretsDB(t, pool, masterKey(t))
	const rows = 1200
	for i := range rows {
		value := fmt.Sprintf("plain-%d", i)
		if i%3 == 0 {
			sealed, err := db.Keyring().Seal(ctx, testField.AAD(fmt.Sprintf("r%04d", i)), []byte(value))
			require.NoError(t, err)
			value = sealed
		}
		_, err := pool.Exec(ctx, "INSERT INTO test_secrets (id, value) VALUES ($1, $2)", fmt.Sprintf("r%04d", i), value)
		require.NoError(t, err)
	}
	expected := map[string]string{}
	for i := range rows {
		expected[fmt.Sprintf("r%04d", i)] = fmt.Sprintf("plain-%d", i)
	}

	// Four writers, each owning every fourth row, keep sealing new values as a running
	// replica would; each remembers what it wrote last.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := 0; ; round++ {
				for i := w; i < rows; i += 4 * 7 {
					select {
					case <-stop:
						return
					default:
					}
					id, value := fmt.Sprintf("r%04d", i), fmt.Sprintf("w%d-round%d-%d", w, round, i)
					sealed, err := db.Keyring().Seal(ctx, testField.AAD(id), []byte(value))
					if err != nil {
						t.Error(err)
						return
					}
					if _, err := pool.Exec(ctx, "UPDATE test_secrets SET value = $1 WHERE id = $2", sealed, id); err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					expected[id] = value
					mu.Unlock()
				}
			}
		}()
	}
	res, err := testServices(db).Encryption.EncryptSecrets(ctx, assess.Actor{ID: "cli:test"})
	close(stop)
	wg.Wait()
	require.NoError(t, err)
	require.Positive(t, res.Encrypted)

	require.Equal(t, expected, openAll(t, pool, db.Keyring()), "no write lost, every value opens")
	st, err := testServices(db).Encryption.EncryptionStatus(ctx)
	require.NoError(t, err)
	require.Equal(t, assess.EncryptedFieldCount{Kind: "test_secret", Encrypted: rows}, st.Fields[0])

	again, err := testServices(db).Encryption.EncryptSecrets(ctx, assess.Actor{ID: "cli:test"})
	require.NoError(t, err)
	require.Zero(t, again.Encrypted, "a second run changes nothing")
	require.Equal(t, 2, auditCount(t, pool, assess.AuditSecretsMigrated))
}

func TestRotateTwiceKeepsEverythingReadable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewPool(t)
	master := masterKey(t)
	db := secretsDB(t, pool, master)
	jwt, err := db.JWTSecret(ctx)
	require.NoError(t, err)
	want := map[string]string{}
	for i := range 50 {
		id := fmt.Sprintf("k%02d", i)
		sealed, err := db.Keyring().Seal(ctx, testField.AAD(id), []byte("value-"+id))
		require.NoError(t, err)
		_, err = pool.Exec(ctx, "INSERT INTO test_secrets VALUES ($1, $2)", id, sealed)
		require.NoError(t, err)
		want[id] = "value-" + id
	}
	first, err := testServices(db).Encryption.RotateEncryptionKey(ctx, assess.Actor{ID: "u_admin"})
	require.NoError(t, err)
	require.Equal(t, assess.RotationResult{Version: 2, PreviousVersion: 1, Rewrapped: 51}, first)
	second, err := testServices(db).Encryption.RotateEncryptionKey(ctx, assess.Actor{ID: "u_admin"})
	require.NoError(t, err)
	require.Equal(t, 3, second.Version)

	// A fresh process with the same master key reads every value.
	fresh := secretsDB(t, pool, master)
	require.Equal(t, want, openAll(t, pool, fresh.Keyring()))
	again, err := fresh.JWTSecret(ctx)
	require.NoError(t, err)
	require.Equal(t, jwt, again)

	st, err := testServices(fresh).Encryption.EncryptionStatus(ctx)
	require.NoError(t, err)
	require.Equal(t, 3, st.CurrentVersion)
	require.Len(t, st.Versions, 3)
	for i, v := range st.Versions {
		require.Equal(t, i+1, v.Version)
		require.True(t, v.Usable)
		require.Equal(t, i == 2, v.Current)
	}
	var stored string
	require.NoError(t, pool.QueryRow(ctx, "SELECT value FROM test_secrets WHERE id = 'k00'").Scan(&stored))
	v, err := secret.ParseVersion(stored)
	require.NoError(t, err)
	require.Equal(t, 3, v, "data keys are rewrapped under the newest version")
	require.Equal(t, 2, auditCount(t, pool, assess.AuditKEKRotated))
}

func TestRekeyMaster(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewPool(t)
	oldKey, newKey, stranger := masterKey(t), masterKey(t), masterKey(t)
	db := secretsDB(t, pool, oldKey)
	jwt, err := db.JWTSecret(ctx)
	require.NoError(t, err)
	_, err = testServices(db).Encryption.RotateEncryptionKey(ctx, assess.Actor{ID: "test"})
	require.NoError(t, err)

	_, err = testServices(db).Encryption.RekeyMaster(ctx, stranger, newKey, assess.Actor{ID: "test"})
	require.ErrorContains(t, err, "OLD_MASTER_ENCRYPTION_KEY does not open key version 1")
	require.Equal(t, jwt, mustJWT(t, secretsDB(t, pool, oldKey)), "a refused rekey changes nothing")

	n, err := testServices(db).Encryption.RekeyMaster(ctx, oldKey, newKey, assess.Actor{ID: "cli:ops"})
	require.NoError(t, err)
	require.Equal(t, 2, n)
	n, err = testServices(db).Encryption.RekeyMaster(ctx, oldKey, newKey, assess.Actor{ID: "cli:ops"})
	require.NoError(t, err)
	require.Zero(t, n, "running it again is harmless")
	require.Equal(t, 1, auditCount(t, pool, assess.AuditMasterRekeyed))

	// Only the new key is needed now; the old one no longer opens anything.
	require.Equal(t, jwt, mustJWT(t, secretsDB(t, pool, newKey)))
	withOld := secretsDB(t, pool, oldKey)
	require.Equal(t, []int{1, 2}, withOld.Keyring().Unusable())
	_, err = withOld.JWTSecret(ctx)
	var ae *assess.Error
	require.True(t, errors.As(err, &ae))
	require.Equal(t, assess.ECodeKeyUnavailable, ae.Code)
	require.Contains(t, ae.Message, "cannot open that key version")
}

func mustJWT(t *testing.T, db *postgres.DB) string {
	t.Helper()
	s, err := db.JWTSecret(context.Background())
	require.NoError(t, err)
	return s
}

func TestUnavailableKeyWritesAuditRows(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewPool(t)
	db := secretsDB(t, pool, masterKey(t))
	_, err := db.JWTSecret(ctx)
	require.NoError(t, err)

	// Wrong master key, then no master key at all: the service starts, the read fails
	// with a clear error, and each failed read is audited.
	for _, key := range [][]byte{masterKey(t), nil} {
		other := secretsDB(t, pool, key)
		_, err := other.JWTSecret(assess.WithActor(ctx, assess.Actor{ID: "u_reader", RequestID: "req-9"}))
		var ae *assess.Error
		require.True(t, errors.As(err, &ae), "%v", err)
		require.Equal(t, assess.ECodeKeyUnavailable, ae.Code)
	}
	require.Equal(t, 2, auditCount(t, pool, assess.AuditKeyUnavailable))
	var actor, rid, target string
	var version int
	require.NoError(t, pool.QueryRow(ctx, `SELECT actor, request_id, target_id, (details->>'keyVersion')::int
		FROM audit_log WHERE action = $1 ORDER BY id LIMIT 1`, assess.AuditKeyUnavailable).Scan(&actor, &rid, &target, &version))
	require.Equal(t, "u_reader", actor)
	require.Equal(t, "req-9", rid)
	require.Equal(t, "app_config/value/jwt_secret", target)
	require.Equal(t, 1, version)
}

func TestPassthroughAndEnablingLater(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewPool(t)
	plain := secretsDB(t, pool, nil)
	jwt, err := plain.JWTSecret(ctx)
	require.NoError(t, err)
	st, err := testServices(plain).Encryption.EncryptionStatus(ctx)
	require.NoError(t, err)
	require.Equal(t, "passthrough", st.Mode)
	require.Equal(t, int64(1), st.Fields[1].Plaintext)
	_, err = testServices(plain).Encryption.RotateEncryptionKey(ctx, assess.Actor{ID: "x"})
	require.ErrorContains(t, err, "MASTER_ENCRYPTION_KEY")

	enc := secretsDB(t, pool, masterKey(t))
	require.Equal(t, jwt, mustJWT(t, enc), "plaintext written before encryption still reads")
	res, err := testServices(enc).Encryption.EncryptSecrets(ctx, assess.Actor{ID: "cli:ops"})
	require.NoError(t, err)
	require.Equal(t, int64(1), res.Encrypted)
	require.Equal(t, jwt, mustJWT(t, enc))
	var stored string
	require.NoError(t, pool.QueryRow(ctx, "SELECT value FROM app_config WHERE key = 'jwt_secret'").Scan(&stored))
	require.True(t, secret.IsEncrypted(stored))
	require.NotContains(t, stored, jwt)
}

// BenchmarkRotate measures a rotation over 100 000 encrypted values (rewrapping each data
// key and writing it back). Run: go test ./pkg/postgres -run XXX -bench BenchmarkRotate -benchtime 1x
func BenchmarkRotate(b *testing.B) {
	ctx := context.Background()
	pool := pgtest.NewPool(b)
	db := secretsDB(b, pool, masterKey(b))
	const n = 100_000
	_, err := pool.Exec(ctx, "INSERT INTO test_secrets SELECT 'r' || lpad(g::text, 6, '0'), 'plain-' || g FROM generate_series(1, $1) g", n)
	require.NoError(b, err)
	_, err = testServices(db).Encryption.EncryptSecrets(ctx, assess.Actor{ID: "bench"})
	require.NoError(b, err)
	b.ResetTimer()
	for range b.N {
		res, err := testServices(db).Encryption.RotateEncryptionKey(ctx, assess.Actor{ID: "bench"})
		require.NoError(b, err)
		require.Equal(b, int64(n), res.Rewrapped)
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "values/s")
}

// TestRecoverLostKey: the master key is lost. Rotation refuses (a mistyped key must not
// start a new ledger branch); the explicit recovery starts a new version, leaves the
// unreadable values as they are and counts them, and new secrets are sealed again.
func TestRecoverLostKey(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewPool(t)
	lost := secretsDB(t, pool, masterKey(t))
	sealed, err := lost.Keyring().Seal(ctx, testField.AAD("old"), []byte("gone"))
	require.NoError(t, err)
	_, err = pool.Exec(ctx, "INSERT INTO test_secrets VALUES ('old', $1)", sealed)
	require.NoError(t, err)

	fresh := secretsDB(t, pool, masterKey(t))
	_, err = testServices(fresh).Encryption.RotateEncryptionKey(ctx, assess.Actor{ID: "ops"})
	require.ErrorContains(t, err, "--recover-lost-key")
	res, err := testServices(fresh).Encryption.RecoverLostKey(ctx, assess.Actor{ID: "ops"})
	require.NoError(t, err)
	require.Equal(t, assess.RotationResult{Version: 2, PreviousVersion: 1, Unreadable: 1}, res)
	require.Equal(t, 0, auditCount(t, pool, assess.AuditKeyUnavailable), "skipped values are not read, so not audited")

	again, err := fresh.Keyring().Seal(ctx, testField.AAD("new"), []byte("fresh"))
	require.NoError(t, err)
	v, err := secret.ParseVersion(again)
	require.NoError(t, err)
	require.Equal(t, 2, v)
	_, err = testServices(fresh).Encryption.RecoverLostKey(ctx, assess.Actor{ID: "ops"})
	require.ErrorContains(t, err, "nothing is lost")
}

func TestConcurrentRotationsAreRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewPool(t)
	db := secretsDB(t, pool, masterKey(t))
	_, err := pool.Exec(ctx, "INSERT INTO test_secrets SELECT 'r' || g, 'v' || g FROM generate_series(1, 3000) g")
	require.NoError(t, err)
	_, err = testServices(db).Encryption.EncryptSecrets(ctx, assess.Actor{ID: "t"})
	require.NoError(t, err)
	errs := make(chan error, 2)
	for range 2 {
		go func() {
			_, err := testServices(db).Encryption.RotateEncryptionKey(ctx, assess.Actor{ID: "t"})
			errs <- err
		}()
	}
	var conflicts int
	for range 2 {
		if err := <-errs; err != nil {
			var ae *assess.Error
			require.True(t, errors.As(err, &ae), "%v", err)
			require.Equal(t, assess.ECodeConflict, ae.Code)
			conflicts++
		}
	}
	st, err := testServices(db).Encryption.EncryptionStatus(ctx)
	require.NoError(t, err)
	require.Len(t, st.Versions, 3-conflicts)
	require.Equal(t, int64(3000), st.Fields[0].Encrypted)
	for id, v := range openAll(t, pool, db.Keyring()) {
		require.Equal(t, "v"+id[1:], v)
	}
}
