package postgres_test

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/migrations"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func openPool(t *testing.T, dsn string) *pgxpool.Pool {
	t.Helper()
	pool, err := postgres.OpenPool(context.Background(), dsn, postgres.PoolConfig{MaxConns: 8, ApplicationName: "test"})
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	return pool
}

// TestPoolTurnsJITOff: connections of the pool run without JIT compilation unless the
// connection string sets jit.
func TestPoolTurnsJITOff(t *testing.T) {
	t.Parallel()
	dsn := pgtest.NewEmptyDatabase(t)
	var jit string
	require.NoError(t, openPool(t, dsn).QueryRow(context.Background(), "SHOW jit").Scan(&jit))
	require.Equal(t, "off", jit)
	withJIT := dsn + " jit=on" // keyword/value form
	if strings.Contains(dsn, "://") {
		withJIT = dsn + map[bool]string{false: "?", true: "&"}[strings.Contains(dsn, "?")] + "jit=on"
	}
	require.NoError(t, openPool(t, withJIT).QueryRow(context.Background(), "SHOW jit").Scan(&jit))
	require.Equal(t, "on", jit)
}

// TestConcurrentMigrationsApplyOnce starts several migrators at once, as several replicas
// starting together would: the advisory lock lets one apply and the others find nothing
// left to do.
func TestConcurrentMigrationsApplyOnce(t *testing.T) {
	t.Parallel()
	dsn := pgtest.NewEmptyDatabase(t)
	ctx := context.Background()
	require.ErrorIs(t, postgres.CheckSchema(ctx, openPool(t, dsn)), postgres.ErrSchemaOutdated)

	var wg sync.WaitGroup
	results := make([]postgres.MigrateResult, 3)
	errs := make([]error, 3)
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = postgres.Migrate(ctx, openPool(t, dsn), quiet)
		}()
	}
	wg.Wait()
	applied, riverApplied := 0, 0
	for i := range 3 {
		require.NoError(t, errs[i])
		applied += len(results[i].Applied)
		riverApplied += len(results[i].RiverVersions)
	}
	all, err := postgres.LoadMigrations(migrations.FS)
	require.NoError(t, err)
	require.Equal(t, len(all), applied, "each migration applied exactly once")
	require.Positive(t, riverApplied)

	pool := openPool(t, dsn)
	require.NoError(t, postgres.CheckSchema(ctx, pool))
	st, err := postgres.ReadSchemaStatus(ctx, pool)
	require.NoError(t, err)
	require.Equal(t, st.Latest, st.Current)
	require.Empty(t, st.Pending)
	require.Empty(t, st.River)
}

func TestLoadMigrationsRejectsBadFiles(t *testing.T) {
	t.Parallel()
	_, err := postgres.LoadMigrations(fstest.MapFS{"01_bad.sql": {Data: []byte("SELECT 1")}})
	require.ErrorContains(t, err, "0001_description.sql")
	_, err = postgres.LoadMigrations(fstest.MapFS{
		"0001_a.sql": {Data: []byte("SELECT 1")}, "0001_b.sql": {Data: []byte("SELECT 1")},
	})
	require.ErrorContains(t, err, "used twice")
	ms, err := postgres.LoadMigrations(fstest.MapFS{
		"0002_b.sql": {Data: []byte("SELECT 2")}, "0001_a.sql": {Data: []byte("SELECT 1")}, "README.md": {},
	})
	require.NoError(t, err)
	require.Equal(t, []int{1, 2}, []int{ms[0].Version, ms[1].Version})
}

func TestJWTSecretIsGeneratedOnceUnderConcurrency(t *testing.T) {
	t.Parallel()
	db := postgres.New(openPool(t, pgtest.NewDatabase(t)), nil)
	ctx := context.Background()
	secrets := make([]string, 8)
	var wg sync.WaitGroup
	for i := range secrets {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := db.JWTSecret(ctx)
			require.NoError(t, err)
			secrets[i] = s
		}()
	}
	wg.Wait()
	for _, s := range secrets {
		require.Equal(t, secrets[0], s)
	}
	require.Len(t, secrets[0], 96)
}

func TestSetupCompleteAndHealth(t *testing.T) {
	t.Parallel()
	pool := openPool(t, pgtest.NewDatabase(t))
	db := postgres.New(pool, nil)
	ctx := context.Background()
	require.NoError(t, db.CheckHealth(ctx))
	done, err := db.SetupComplete(ctx)
	require.NoError(t, err)
	require.False(t, done)
	_, err = pool.Exec(ctx, `INSERT INTO users (id, username, email) VALUES ('u_1', 'admin', 'a@example.com')`)
	require.NoError(t, err)
	done, err = db.SetupComplete(ctx)
	require.NoError(t, err)
	require.True(t, done)

	pool.Close()
	require.Error(t, db.CheckHealth(ctx), "a closed pool is unhealthy")
}

func TestOpenPoolFailsClearly(t *testing.T) {
	t.Parallel()
	_, err := postgres.OpenPool(context.Background(), "host=127.0.0.1 port=1 user=x dbname=x sslmode=disable connect_timeout=2", postgres.PoolConfig{})
	require.ErrorContains(t, err, "cannot connect to 127.0.0.1:1")
	_, err = postgres.OpenPool(context.Background(), "postgres://%zz", postgres.PoolConfig{})
	require.ErrorContains(t, err, "parse connection string")
}
