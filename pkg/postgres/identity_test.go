package postgres_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/identity"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
	"github.com/assay-dev/assay/pkg/postgres/services"
	"github.com/assay-dev/assay/pkg/secret"
)

// fakeClock is a clock the test sets or advances.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *fakeClock) Add(d time.Duration) { c.mu.Lock(); defer c.mu.Unlock(); c.now = c.now.Add(d) }
func (c *fakeClock) Set(t time.Time)     { c.mu.Lock(); defer c.mu.Unlock(); c.now = t }
func isBadCredentials(err error) bool    { return errors.Is(err, assess.ErrBadCredentials) }

// testHasher hashes passwords with Argon2 at its cheapest: the tests hash many.
func testHasher() *secret.Hasher {
	return secret.NewHasher(secret.Argon2Params{MemoryKiB: 64, Time: 1, Threads: 1}, 2)
}

// testServices are the store's services on db with the tests' sign-in rules (passwords of
// 12 characters or more, three failed sign-ins lock an account for 15 minutes) and a fast
// hasher.
func testServices(db *postgres.DB) *services.Services {
	cfg := services.DefaultConfig()
	cfg.Identity = &identity.Config{PasswordMinLength: 12, MaxFailedLogins: 3, LockoutDuration: 15 * time.Minute, Hasher: testHasher()}
	return services.NewWith(db, cfg)
}

// newIdentityDB is a store on a fresh database with the tests' sign-in rules (passwords
// of 12 characters or more, three failed sign-ins lock an account for 15 minutes), the
// built-in roles and the clock now.
func newIdentityDB(t *testing.T, now func() time.Time) (*postgres.DB, *identity.IdentityService) {
	t.Helper()
	db := postgres.New(pgtest.NewPool(t), now)
	svc := testServices(db)
	require.NoError(t, svc.Roles.SyncBuiltinRoles(context.Background()))
	return db, svc.Identity
}

// TestLockoutClearsByTime: three wrong passwords lock the account; even the right password
// is refused while locked; once the lockout duration has passed it works again and the
// failure count starts afresh.
func TestLockoutClearsByTime(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := &fakeClock{now: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}
	_, id := newIdentityDB(t, clock.Now)
	_, err := id.CreateFirstAdmin(ctx, assess.NewAccount{Username: "admin", Email: "a@example.com", DisplayName: "Admin", Password: "the right password"}, assess.Actor{})
	require.NoError(t, err)

	for range 3 {
		_, err := id.Authenticate(ctx, "admin", "a wrong password", assess.Actor{})
		require.True(t, isBadCredentials(err))
	}
	_, err = id.Authenticate(ctx, "admin", "the right password", assess.Actor{})
	require.True(t, isBadCredentials(err), "locked")

	clock.Add(14 * time.Minute)
	_, err = id.Authenticate(ctx, "admin", "the right password", assess.Actor{})
	require.True(t, isBadCredentials(err), "still locked after 14 minutes")

	clock.Add(2 * time.Minute)
	u, err := id.Authenticate(ctx, "admin", "the right password", assess.Actor{})
	require.NoError(t, err, "the lock clears by time")
	require.Equal(t, []string{"admin"}, u.Roles)

	// The count restarted: two failures do not lock again.
	for range 2 {
		_, err := id.Authenticate(ctx, "admin", "a wrong password", assess.Actor{})
		require.True(t, isBadCredentials(err))
	}
	_, err = id.Authenticate(ctx, "admin", "the right password", assess.Actor{})
	require.NoError(t, err)
}

func TestLockoutDisabledWithZero(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := &fakeClock{now: time.Now()}
	db, _ := newIdentityDB(t, clock.Now)
	id := identity.NewIdentityService(db, &identity.Config{PasswordMinLength: 12, MaxFailedLogins: 0, LockoutDuration: time.Hour,
		Hasher: testHasher()})
	_, err := id.CreateFirstAdmin(ctx, assess.NewAccount{Username: "admin", Email: "a@example.com", DisplayName: "Admin", Password: "the right password"}, assess.Actor{})
	require.NoError(t, err)
	for range 10 {
		_, err := id.Authenticate(ctx, "admin", "a wrong password", assess.Actor{})
		require.True(t, isBadCredentials(err))
	}
	_, err = id.Authenticate(ctx, "admin", "the right password", assess.Actor{})
	require.NoError(t, err, "LOGIN_MAX_FAILED_ATTEMPTS=0 disables lockout")
}
