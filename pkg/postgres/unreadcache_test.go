package postgres_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// TestUnreadCountCacheAcrossReplicas: two stores on one database stand for two replicas.
// a caches unread counts and runs its listener and announcing loop, like a server; the
// fixture's store runs neither, like the worker or assay-ctl, and announces its changes
// right after each commit. A count changes at once on the replica that made the change
// and within a second on the other; while a's listener is down, a does not cache.
func TestUnreadCountCacheAcrossReplicas(t *testing.T) {
	t.Parallel()
	f := newEventsFixture(t, allOn())
	carol := f.user("carol", assess.RoleAdmin)
	a := postgres.New(f.pool, nil).WithUnreadCountCache(time.Minute)
	_, err := a.LoadKeyring(f.ctx, masterKey(t), assess.Actor{ID: "test"})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(f.ctx)
	defer cancel()
	go a.ListenChanges(ctx, slog.New(slog.DiscardHandler))
	require.Eventually(t, a.UnreadCountCacheEnabledForTest, 10*time.Second, 10*time.Millisecond)
	count := func(db *postgres.DB) int {
		t.Helper()
		n, err := testServices(db).Notifications.CountUnreadNotifications(f.ctx, carol.ID)
		require.NoError(t, err)
		return n
	}
	// eventually asserts a's count becomes want within a second, read as a client would.
	eventually := func(want int, msg string) {
		t.Helper()
		require.Eventually(t, func() bool { return count(a) == want }, time.Second, 5*time.Millisecond, msg)
	}

	n := count(a) // carol heard of her own creation
	require.Equal(t, 1, n)
	require.True(t, a.UnreadCountCachedForTest(carol.ID), "a count read is cached")

	f.user("dave") // on the other store: carol, an administrator, hears of it
	eventually(2, "a change on the other replica reaches a's cache")
	require.Equal(t, 2, count(f.db))

	_, err = testServices(a).Users.CreateUser(f.ctx, assess.NewUser{NewAccount: assess.NewAccount{Username: "erin",
		Email: "erin@example.com", DisplayName: "Erin", Password: "a long enough password"}}, f.actor())
	require.NoError(t, err)
	require.False(t, a.UnreadCountCachedForTest(carol.ID), "dropped by the commit on the replica that made it")
	require.Equal(t, 3, count(a), "exact at once on the replica that made the change")

	// A change recorded as another actor (tx.As: a registration is recorded as the new
	// user) counts as well.
	inv, token, err := testServices(a).Invites.CreateInvite(f.ctx, assess.NewInvite{IntendedRole: assess.RoleAssessee, ExpiresInHours: 24}, f.actor())
	require.NoError(t, err)
	require.Equal(t, 4, count(a))
	require.True(t, a.UnreadCountCachedForTest(carol.ID))
	require.NoError(t, testServices(a).Invites.Register(f.ctx, "invite_only", assess.Registration{InviteToken: token,
		NewAccount: assess.NewAccount{Username: "gina", Email: "gina@example.com", DisplayName: "Gina", Password: "a long enough password"}}, assess.Actor{}))
	require.False(t, a.UnreadCountCachedForTest(carol.ID), "dropped by the commit of a change recorded as another actor")
	require.Equal(t, 5, count(a), "the new user (invite %s), at once on the replica that made the change", inv.ID)
	_, err = testServices(a).Notifications.MarkAllNotificationsRead(f.ctx, carol.ID)
	require.NoError(t, err)
	f.user("erin2")
	eventually(1, "the other replica's change reaches a")

	page, err := f.svc.Notifications.FindNotifications(f.ctx, carol.ID, assess.NotificationFilter{Unread: true, PageRequest: assess.PageRequest{Limit: 1}})
	require.NoError(t, err)
	_, err = f.svc.Notifications.MarkNotificationRead(f.ctx, carol.ID, page.Items[0].ID)
	require.NoError(t, err)
	eventually(0, "reading one on the other replica reaches a")
	f.user("hank")
	f.user("ivan")
	eventually(2, "two more from the other replica")
	n, err = testServices(a).Notifications.MarkAllNotificationsRead(f.ctx, carol.ID)
	require.NoError(t, err)
	require.Equal(t, 2, n)
	require.Zero(t, count(a), "exact at once after marking all read")

	// The listener cut: a stops caching and flushes; once it is back it caches again and
	// hears the other replica.
	var killed int
	require.NoError(t, f.pool.QueryRow(f.ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE query = 'LISTEN assay_credentials' AND datname = current_database()`).Scan(&killed))
	require.Equal(t, 1, killed)
	require.Eventually(t, func() bool { return !a.UnreadCountCacheEnabledForTest() }, 5*time.Second, 5*time.Millisecond)
	require.False(t, a.UnreadCountCachedForTest(carol.ID), "flushed when the listener dropped")
	require.Eventually(t, a.UnreadCountCacheEnabledForTest, 10*time.Second, 10*time.Millisecond, "the listener reconnects")
	require.Zero(t, count(a))
	require.True(t, a.UnreadCountCachedForTest(carol.ID))
	f.user("frank")
	eventually(1, "heard again after the reconnection")
}
