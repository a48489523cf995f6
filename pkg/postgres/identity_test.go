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

// fakeClock is a settable clock for lockout tests.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *fakeClock) Add(d time.Duration) { c.mu.Lock(); defer c.mu.Unlock(); c.now = c.now.Add(d) }
func isBadCredentials(err error) bool    { return errors.Is(err, assess.ErrBadCredentials) }
func newIdentityDB(t *testing.T, clock *fakeClock) (*postgres.DB, *identity.IdentityService) {
	pool := pgtest.NewPool(t)
	db := postgres.New(pool, clock.Now).ConfigureIdentity(postgres.IdentityConfig{
		PasswordMinLength: 12, MaxFailedLogins: 3, LockoutDuration: 15 * time.Minute,
	}, secret.NewHasher(secret.Argon2Params{MemoryKiB: 64, Time: 1, Threads: 1}, 2))
	svc := services.New(db)
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
	_, id := newIdentityDB(t, clock)
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
	db, id := newIdentityDB(t, clock)
	db.ConfigureIdentity(postgres.IdentityConfig{PasswordMinLength: 12, MaxFailedLogins: 0, LockoutDuration: time.Hour},
		secret.NewHasher(secret.Argon2Params{MemoryKiB: 64, Time: 1, Threads: 1}, 2))
	_, err := id.CreateFirstAdmin(ctx, assess.NewAccount{Username: "admin", Email: "a@example.com", DisplayName: "Admin", Password: "the right password"}, assess.Actor{})
	require.NoError(t, err)
	for range 10 {
		_, err := id.Authenticate(ctx, "admin", "a wrong password", assess.Actor{})
		require.True(t, isBadCredentials(err))
	}
	_, err = id.Authenticate(ctx, "admin", "the right password", assess.Actor{})
	require.NoError(t, err, "LOGIN_MAX_FAILED_ATTEMPTS=0 disables lockout")
}
